; ModuleID = '/tmp/bits.c'
source_filename = "/tmp/bits.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@b = dso_local global [100 x i32] zeroinitializer, align 16, !dbg !0
@a = dso_local global [100 x i32] zeroinitializer, align 16, !dbg !5
@x = dso_local global [100 x double] zeroinitializer, align 16, !dbg !12

; Function Attrs: noinline nounwind uwtable
define dso_local void @f(i32 noundef %0) #0 !dbg !24 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !28, !DIExpression(), !29)
    #dbg_declare(ptr %3, !30, !DIExpression(), !32)
  store i32 0, ptr %3, align 4, !dbg !32
  br label %4, !dbg !33

4:                                                ; preds = %58, %1
  %5 = load i32, ptr %3, align 4, !dbg !34
  %6 = load i32, ptr %2, align 4, !dbg !36
  %7 = icmp slt i32 %5, %6, !dbg !37
  br i1 %7, label %8, label %61, !dbg !38

8:                                                ; preds = %4
  %9 = load i32, ptr %3, align 4, !dbg !39
  %10 = sext i32 %9 to i64, !dbg !41
  %11 = getelementptr inbounds [100 x i32], ptr @b, i64 0, i64 %10, !dbg !41
  %12 = load i32, ptr %11, align 4, !dbg !41
  %13 = shl i32 %12, 2, !dbg !42
  %14 = load i32, ptr %3, align 4, !dbg !43
  %15 = sext i32 %14 to i64, !dbg !44
  %16 = getelementptr inbounds [100 x i32], ptr @b, i64 0, i64 %15, !dbg !44
  %17 = load i32, ptr %16, align 4, !dbg !44
  %18 = ashr i32 %17, 1, !dbg !45
  %19 = xor i32 %13, %18, !dbg !46
  %20 = load i32, ptr %3, align 4, !dbg !47
  %21 = sext i32 %20 to i64, !dbg !48
  %22 = getelementptr inbounds [100 x i32], ptr @b, i64 0, i64 %21, !dbg !48
  %23 = load i32, ptr %22, align 4, !dbg !48
  %24 = and i32 %23, 7, !dbg !49
  %25 = or i32 %19, %24, !dbg !50
  %26 = load i32, ptr %3, align 4, !dbg !51
  %27 = sext i32 %26 to i64, !dbg !52
  %28 = getelementptr inbounds [100 x i32], ptr @a, i64 0, i64 %27, !dbg !52
  store i32 %25, ptr %28, align 4, !dbg !53
  %29 = load i32, ptr %3, align 4, !dbg !54
  %30 = sext i32 %29 to i64, !dbg !55
  %31 = getelementptr inbounds [100 x double], ptr @x, i64 0, i64 %30, !dbg !55
  %32 = load double, ptr %31, align 8, !dbg !55
  %33 = load i32, ptr %3, align 4, !dbg !56
  %34 = sext i32 %33 to i64, !dbg !57
  %35 = getelementptr inbounds [100 x double], ptr @x, i64 0, i64 %34, !dbg !57
  %36 = load double, ptr %35, align 8, !dbg !57
  %37 = fcmp une double %32, %36, !dbg !58
  br i1 %37, label %38, label %39, !dbg !59

38:                                               ; preds = %8
  br label %45, !dbg !59

39:                                               ; preds = %8
  %40 = load i32, ptr %3, align 4, !dbg !60
  %41 = sext i32 %40 to i64, !dbg !61
  %42 = getelementptr inbounds [100 x double], ptr @x, i64 0, i64 %41, !dbg !61
  %43 = load double, ptr %42, align 8, !dbg !61
  %44 = fadd double %43, 1.000000e+00, !dbg !62
  br label %45, !dbg !59

45:                                               ; preds = %39, %38
  %46 = phi double [ 0.000000e+00, %38 ], [ %44, %39 ], !dbg !59
  %47 = load i32, ptr %3, align 4, !dbg !63
  %48 = sext i32 %47 to i64, !dbg !64
  %49 = getelementptr inbounds [100 x double], ptr @x, i64 0, i64 %48, !dbg !64
  store double %46, ptr %49, align 8, !dbg !65
  %50 = load i32, ptr %3, align 4, !dbg !66
  %51 = sext i32 %50 to i64, !dbg !67
  %52 = getelementptr inbounds [100 x i32], ptr @b, i64 0, i64 %51, !dbg !67
  %53 = load i32, ptr %52, align 4, !dbg !67
  %54 = call i32 @llvm.abs.i32(i32 %53, i1 true), !dbg !68
  %55 = load i32, ptr %3, align 4, !dbg !69
  %56 = sext i32 %55 to i64, !dbg !70
  %57 = getelementptr inbounds [100 x i32], ptr @a, i64 0, i64 %56, !dbg !70
  store i32 %54, ptr %57, align 4, !dbg !71
  br label %58, !dbg !72

58:                                               ; preds = %45
  %59 = load i32, ptr %3, align 4, !dbg !73
  %60 = add nsw i32 %59, 1, !dbg !73
  store i32 %60, ptr %3, align 4, !dbg !73
  br label %4, !dbg !74, !llvm.loop !75

61:                                               ; preds = %4
  ret void, !dbg !78
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.abs.i32(i32, i1 immarg) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!16, !17, !18, !19, !20, !21, !22}
!llvm.ident = !{!23}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "b", scope: !2, file: !7, line: 1, type: !8, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "/tmp/bits.c", directory: "/work/main", checksumkind: CSK_MD5, checksum: "562cb86b0d9c9bac6152d6dc59ba2f51")
!4 = !{!5, !0, !12}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "a", scope: !2, file: !7, line: 1, type: !8, isLocal: false, isDefinition: true)
!7 = !DIFile(filename: "/tmp/bits.c", directory: "", checksumkind: CSK_MD5, checksum: "562cb86b0d9c9bac6152d6dc59ba2f51")
!8 = !DICompositeType(tag: DW_TAG_array_type, baseType: !9, size: 3200, elements: !10)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !{!11}
!11 = !DISubrange(count: 100)
!12 = !DIGlobalVariableExpression(var: !13, expr: !DIExpression())
!13 = distinct !DIGlobalVariable(name: "x", scope: !2, file: !7, line: 2, type: !14, isLocal: false, isDefinition: true)
!14 = !DICompositeType(tag: DW_TAG_array_type, baseType: !15, size: 6400, elements: !10)
!15 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!16 = !{i32 7, !"Dwarf Version", i32 5}
!17 = !{i32 2, !"Debug Info Version", i32 3}
!18 = !{i32 1, !"wchar_size", i32 4}
!19 = !{i32 8, !"PIC Level", i32 2}
!20 = !{i32 7, !"PIE Level", i32 2}
!21 = !{i32 7, !"uwtable", i32 2}
!22 = !{i32 7, !"frame-pointer", i32 2}
!23 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!24 = distinct !DISubprogram(name: "f", scope: !7, file: !7, line: 3, type: !25, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !27)
!25 = !DISubroutineType(types: !26)
!26 = !{null, !9}
!27 = !{}
!28 = !DILocalVariable(name: "n", arg: 1, scope: !24, file: !7, line: 3, type: !9)
!29 = !DILocation(line: 3, column: 12, scope: !24)
!30 = !DILocalVariable(name: "i", scope: !31, file: !7, line: 4, type: !9)
!31 = distinct !DILexicalBlock(scope: !24, file: !7, line: 4, column: 3)
!32 = !DILocation(line: 4, column: 12, scope: !31)
!33 = !DILocation(line: 4, column: 8, scope: !31)
!34 = !DILocation(line: 4, column: 19, scope: !35)
!35 = distinct !DILexicalBlock(scope: !31, file: !7, line: 4, column: 3)
!36 = !DILocation(line: 4, column: 23, scope: !35)
!37 = !DILocation(line: 4, column: 21, scope: !35)
!38 = !DILocation(line: 4, column: 3, scope: !31)
!39 = !DILocation(line: 5, column: 15, scope: !40)
!40 = distinct !DILexicalBlock(scope: !35, file: !7, line: 4, column: 31)
!41 = !DILocation(line: 5, column: 13, scope: !40)
!42 = !DILocation(line: 5, column: 18, scope: !40)
!43 = !DILocation(line: 5, column: 29, scope: !40)
!44 = !DILocation(line: 5, column: 27, scope: !40)
!45 = !DILocation(line: 5, column: 32, scope: !40)
!46 = !DILocation(line: 5, column: 24, scope: !40)
!47 = !DILocation(line: 5, column: 43, scope: !40)
!48 = !DILocation(line: 5, column: 41, scope: !40)
!49 = !DILocation(line: 5, column: 46, scope: !40)
!50 = !DILocation(line: 5, column: 38, scope: !40)
!51 = !DILocation(line: 5, column: 7, scope: !40)
!52 = !DILocation(line: 5, column: 5, scope: !40)
!53 = !DILocation(line: 5, column: 10, scope: !40)
!54 = !DILocation(line: 6, column: 15, scope: !40)
!55 = !DILocation(line: 6, column: 13, scope: !40)
!56 = !DILocation(line: 6, column: 23, scope: !40)
!57 = !DILocation(line: 6, column: 21, scope: !40)
!58 = !DILocation(line: 6, column: 18, scope: !40)
!59 = !DILocation(line: 6, column: 12, scope: !40)
!60 = !DILocation(line: 6, column: 37, scope: !40)
!61 = !DILocation(line: 6, column: 35, scope: !40)
!62 = !DILocation(line: 6, column: 40, scope: !40)
!63 = !DILocation(line: 6, column: 7, scope: !40)
!64 = !DILocation(line: 6, column: 5, scope: !40)
!65 = !DILocation(line: 6, column: 10, scope: !40)
!66 = !DILocation(line: 7, column: 28, scope: !40)
!67 = !DILocation(line: 7, column: 26, scope: !40)
!68 = !DILocation(line: 7, column: 12, scope: !40)
!69 = !DILocation(line: 7, column: 7, scope: !40)
!70 = !DILocation(line: 7, column: 5, scope: !40)
!71 = !DILocation(line: 7, column: 10, scope: !40)
!72 = !DILocation(line: 8, column: 3, scope: !40)
!73 = !DILocation(line: 4, column: 27, scope: !35)
!74 = !DILocation(line: 4, column: 3, scope: !35)
!75 = distinct !{!75, !38, !76, !77}
!76 = !DILocation(line: 8, column: 3, scope: !31)
!77 = !{!"llvm.loop.mustprogress"}
!78 = !DILocation(line: 9, column: 1, scope: !24)
