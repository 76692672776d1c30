; ModuleID = 'k2.c'
source_filename = "k2.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@b = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !0
@a = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !5

; Function Attrs: noinline nounwind uwtable
define dso_local void @f(i32 noundef %0) #0 !dbg !19 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !24, !DIExpression(), !25)
    #dbg_declare(ptr %3, !26, !DIExpression(), !28)
  store i32 1, ptr %3, align 4, !dbg !28
  br label %6, !dbg !29

6:                                                ; preds = %60, %1
  %7 = load i32, ptr %3, align 4, !dbg !30
  %8 = icmp slt i32 %7, 63, !dbg !32
  br i1 %8, label %9, label %63, !dbg !33

9:                                                ; preds = %6
    #dbg_declare(ptr %4, !34, !DIExpression(), !36)
  store i32 1, ptr %4, align 4, !dbg !36
  br label %10, !dbg !37

10:                                               ; preds = %56, %9
  %11 = load i32, ptr %4, align 4, !dbg !38
  %12 = icmp slt i32 %11, 63, !dbg !40
  br i1 %12, label %13, label %59, !dbg !41

13:                                               ; preds = %10
  %14 = load i32, ptr %3, align 4, !dbg !42
  %15 = sub nsw i32 %14, 1, !dbg !43
  %16 = sext i32 %15 to i64, !dbg !44
  %17 = getelementptr inbounds [64 x [64 x double]], ptr @b, i64 0, i64 %16, !dbg !44
  %18 = load i32, ptr %4, align 4, !dbg !45
  %19 = sext i32 %18 to i64, !dbg !44
  %20 = getelementptr inbounds [64 x double], ptr %17, i64 0, i64 %19, !dbg !44
  %21 = load double, ptr %20, align 8, !dbg !44
  %22 = load i32, ptr %3, align 4, !dbg !46
  %23 = add nsw i32 %22, 1, !dbg !47
  %24 = sext i32 %23 to i64, !dbg !48
  %25 = getelementptr inbounds [64 x [64 x double]], ptr @b, i64 0, i64 %24, !dbg !48
  %26 = load i32, ptr %4, align 4, !dbg !49
  %27 = sext i32 %26 to i64, !dbg !48
  %28 = getelementptr inbounds [64 x double], ptr %25, i64 0, i64 %27, !dbg !48
  %29 = load double, ptr %28, align 8, !dbg !48
  %30 = fadd double %21, %29, !dbg !50
  %31 = load i32, ptr %3, align 4, !dbg !51
  %32 = sext i32 %31 to i64, !dbg !52
  %33 = getelementptr inbounds [64 x [64 x double]], ptr @b, i64 0, i64 %32, !dbg !52
  %34 = load i32, ptr %4, align 4, !dbg !53
  %35 = sub nsw i32 %34, 1, !dbg !54
  %36 = sext i32 %35 to i64, !dbg !52
  %37 = getelementptr inbounds [64 x double], ptr %33, i64 0, i64 %36, !dbg !52
  %38 = load double, ptr %37, align 8, !dbg !52
  %39 = fadd double %30, %38, !dbg !55
  %40 = load i32, ptr %3, align 4, !dbg !56
  %41 = sext i32 %40 to i64, !dbg !57
  %42 = getelementptr inbounds [64 x [64 x double]], ptr @b, i64 0, i64 %41, !dbg !57
  %43 = load i32, ptr %4, align 4, !dbg !58
  %44 = add nsw i32 %43, 1, !dbg !59
  %45 = sext i32 %44 to i64, !dbg !57
  %46 = getelementptr inbounds [64 x double], ptr %42, i64 0, i64 %45, !dbg !57
  %47 = load double, ptr %46, align 8, !dbg !57
  %48 = fadd double %39, %47, !dbg !60
  %49 = fmul double %48, 2.500000e-01, !dbg !61
  %50 = load i32, ptr %3, align 4, !dbg !62
  %51 = sext i32 %50 to i64, !dbg !63
  %52 = getelementptr inbounds [64 x [64 x double]], ptr @a, i64 0, i64 %51, !dbg !63
  %53 = load i32, ptr %4, align 4, !dbg !64
  %54 = sext i32 %53 to i64, !dbg !63
  %55 = getelementptr inbounds [64 x double], ptr %52, i64 0, i64 %54, !dbg !63
  store double %49, ptr %55, align 8, !dbg !65
  br label %56, !dbg !63

56:                                               ; preds = %13
  %57 = load i32, ptr %4, align 4, !dbg !66
  %58 = add nsw i32 %57, 1, !dbg !66
  store i32 %58, ptr %4, align 4, !dbg !66
  br label %10, !dbg !67, !llvm.loop !68

59:                                               ; preds = %10
  br label %60, !dbg !69

60:                                               ; preds = %59
  %61 = load i32, ptr %3, align 4, !dbg !71
  %62 = add nsw i32 %61, 1, !dbg !71
  store i32 %62, ptr %3, align 4, !dbg !71
  br label %6, !dbg !72, !llvm.loop !73

63:                                               ; preds = %6
    #dbg_declare(ptr %5, !75, !DIExpression(), !77)
  store i32 0, ptr %5, align 4, !dbg !77
  br label %64, !dbg !78

64:                                               ; preds = %81, %63
  %65 = load i32, ptr %5, align 4, !dbg !79
  %66 = load i32, ptr %2, align 4, !dbg !81
  %67 = icmp slt i32 %65, %66, !dbg !82
  br i1 %67, label %68, label %84, !dbg !83

68:                                               ; preds = %64
  %69 = load i32, ptr %5, align 4, !dbg !84
  %70 = and i32 %69, 63, !dbg !85
  %71 = sext i32 %70 to i64, !dbg !86
  %72 = getelementptr inbounds [64 x double], ptr @b, i64 0, i64 %71, !dbg !86
  %73 = load double, ptr %72, align 8, !dbg !86
  %74 = load i32, ptr %5, align 4, !dbg !87
  %75 = srem i32 %74, 64, !dbg !88
  %76 = sext i32 %75 to i64, !dbg !89
  %77 = getelementptr inbounds [64 x [64 x double]], ptr @a, i64 0, i64 %76, !dbg !89
  %78 = getelementptr inbounds [64 x double], ptr %77, i64 0, i64 0, !dbg !89
  %79 = load double, ptr %78, align 16, !dbg !90
  %80 = fadd double %79, %73, !dbg !90
  store double %80, ptr %78, align 16, !dbg !90
  br label %81, !dbg !89

81:                                               ; preds = %68
  %82 = load i32, ptr %5, align 4, !dbg !91
  %83 = add nsw i32 %82, 1, !dbg !91
  store i32 %83, ptr %5, align 4, !dbg !91
  br label %64, !dbg !92, !llvm.loop !93

84:                                               ; preds = %64
  ret void, !dbg !95
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!11, !12, !13, !14, !15, !16, !18}
!llvm.ident = !{!18}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "b", scope: !2, file: !3, line: 1, type: !7, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "k2.c", directory: ".", checksumkind: CSK_MD5, checksum: "f18995d80ebb98a509b7508f49d20634")
!4 = !{!5, !0}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "a", scope: !2, file: !3, line: 1, type: !7, isLocal: false, isDefinition: true)
!7 = !DICompositeType(tag: DW_TAG_array_type, baseType: !8, size: 262144, elements: !9)
!8 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!9 = !{!10, !10}
!10 = !DISubrange(count: 64)
!11 = !{i32 7, !"Dwarf Version", i32 5}
!12 = !{i32 2, !"Debug Info Version", i32 3}
!13 = !{i32 1, !"wchar_size", i32 4}
!14 = !{i32 8, !"PIC Level", i32 2}
!15 = !{i32 7, !"PIE Level", i32 2}
!16 = !{i32 7, !"uwtable", i32 2}
!17 = !{i32 7, !"frame-pointer", i32 2}
!18 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!19 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 2, type: !20, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)
!20 = !DISubroutineType(types: !21)
!21 = !{null, !22}
!22 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!23 = !{}
!24 = !DILocalVariable(name: "n", arg: 1, scope: !19, file: !3, line: 2, type: !22)
!25 = !DILocation(line: 2, column: 12, scope: !19)
!26 = !DILocalVariable(name: "i", scope: !27, file: !3, line: 3, type: !22)
!27 = distinct !DILexicalBlock(scope: !19, file: !3, line: 3, column: 3)
!28 = !DILocation(line: 3, column: 12, scope: !27)
!29 = !DILocation(line: 3, column: 8, scope: !27)
!30 = !DILocation(line: 3, column: 19, scope: !31)
!31 = distinct !DILexicalBlock(scope: !27, file: !3, line: 3, column: 3)
!32 = !DILocation(line: 3, column: 21, scope: !31)
!33 = !DILocation(line: 3, column: 3, scope: !27)
!34 = !DILocalVariable(name: "j", scope: !35, file: !3, line: 4, type: !22)
!35 = distinct !DILexicalBlock(scope: !31, file: !3, line: 4, column: 5)
!36 = !DILocation(line: 4, column: 14, scope: !35)
!37 = !DILocation(line: 4, column: 10, scope: !35)
!38 = !DILocation(line: 4, column: 21, scope: !39)
!39 = distinct !DILexicalBlock(scope: !35, file: !3, line: 4, column: 5)
!40 = !DILocation(line: 4, column: 23, scope: !39)
!41 = !DILocation(line: 4, column: 5, scope: !35)
!42 = !DILocation(line: 5, column: 20, scope: !39)
!43 = !DILocation(line: 5, column: 21, scope: !39)
!44 = !DILocation(line: 5, column: 18, scope: !39)
!45 = !DILocation(line: 5, column: 25, scope: !39)
!46 = !DILocation(line: 5, column: 32, scope: !39)
!47 = !DILocation(line: 5, column: 33, scope: !39)
!48 = !DILocation(line: 5, column: 30, scope: !39)
!49 = !DILocation(line: 5, column: 37, scope: !39)
!50 = !DILocation(line: 5, column: 28, scope: !39)
!51 = !DILocation(line: 5, column: 44, scope: !39)
!52 = !DILocation(line: 5, column: 42, scope: !39)
!53 = !DILocation(line: 5, column: 47, scope: !39)
!54 = !DILocation(line: 5, column: 48, scope: !39)
!55 = !DILocation(line: 5, column: 40, scope: !39)
!56 = !DILocation(line: 5, column: 56, scope: !39)
!57 = !DILocation(line: 5, column: 54, scope: !39)
!58 = !DILocation(line: 5, column: 59, scope: !39)
!59 = !DILocation(line: 5, column: 60, scope: !39)
!60 = !DILocation(line: 5, column: 52, scope: !39)
!61 = !DILocation(line: 5, column: 65, scope: !39)
!62 = !DILocation(line: 5, column: 9, scope: !39)
!63 = !DILocation(line: 5, column: 7, scope: !39)
!64 = !DILocation(line: 5, column: 12, scope: !39)
!65 = !DILocation(line: 5, column: 15, scope: !39)
!66 = !DILocation(line: 4, column: 30, scope: !39)
!67 = !DILocation(line: 4, column: 5, scope: !39)
!68 = distinct !{!68, !41, !69, !70}
!69 = !DILocation(line: 5, column: 67, scope: !35)
!70 = !{!"llvm.loop.mustprogress"}
!71 = !DILocation(line: 3, column: 28, scope: !31)
!72 = !DILocation(line: 3, column: 3, scope: !31)
!73 = distinct !{!73, !33, !74, !70}
!74 = !DILocation(line: 5, column: 67, scope: !27)
!75 = !DILocalVariable(name: "k", scope: !76, file: !3, line: 6, type: !22)
!76 = distinct !DILexicalBlock(scope: !19, file: !3, line: 6, column: 3)
!77 = !DILocation(line: 6, column: 12, scope: !76)
!78 = !DILocation(line: 6, column: 8, scope: !76)
!79 = !DILocation(line: 6, column: 19, scope: !80)
!80 = distinct !DILexicalBlock(scope: !76, file: !3, line: 6, column: 3)
!81 = !DILocation(line: 6, column: 23, scope: !80)
!82 = !DILocation(line: 6, column: 21, scope: !80)
!83 = !DILocation(line: 6, column: 3, scope: !76)
!84 = !DILocation(line: 6, column: 52, scope: !80)
!85 = !DILocation(line: 6, column: 54, scope: !80)
!86 = !DILocation(line: 6, column: 47, scope: !80)
!87 = !DILocation(line: 6, column: 33, scope: !80)
!88 = !DILocation(line: 6, column: 35, scope: !80)
!89 = !DILocation(line: 6, column: 31, scope: !80)
!90 = !DILocation(line: 6, column: 44, scope: !80)
!91 = !DILocation(line: 6, column: 27, scope: !80)
!92 = !DILocation(line: 6, column: 3, scope: !80)
!93 = distinct !{!93, !83, !94, !70}
!94 = !DILocation(line: 6, column: 58, scope: !76)
!95 = !DILocation(line: 7, column: 1, scope: !19)
