; ModuleID = 'samples/c/matmul.c'
source_filename = "samples/c/matmul.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@A = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !0
@B = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !14
@C = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !19
@.str = private unnamed_addr constant [23 x i8] c"matmul checksum %.17g\0A\00", align 1, !dbg !7

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main() #0 !dbg !29 {
  %1 = alloca i32, align 4
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  store i32 0, ptr %1, align 4
    #dbg_declare(ptr %2, !34, !DIExpression(), !35)
    #dbg_declare(ptr %3, !36, !DIExpression(), !37)
    #dbg_declare(ptr %4, !38, !DIExpression(), !39)
  store i32 0, ptr %2, align 4, !dbg !40
  br label %6, !dbg !42

6:                                                ; preds = %50, %0
  %7 = load i32, ptr %2, align 4, !dbg !43
  %8 = icmp slt i32 %7, 64, !dbg !45
  br i1 %8, label %9, label %53, !dbg !46

9:                                                ; preds = %6
  store i32 0, ptr %3, align 4, !dbg !47
  br label %10, !dbg !49

10:                                               ; preds = %46, %9
  %11 = load i32, ptr %3, align 4, !dbg !50
  %12 = icmp slt i32 %11, 64, !dbg !52
  br i1 %12, label %13, label %49, !dbg !53

13:                                               ; preds = %10
  %14 = load i32, ptr %2, align 4, !dbg !54
  %15 = load i32, ptr %3, align 4, !dbg !56
  %16 = mul nsw i32 2, %15, !dbg !57
  %17 = add nsw i32 %14, %16, !dbg !58
  %18 = srem i32 %17, 7, !dbg !59
  %19 = sitofp i32 %18 to double, !dbg !60
  %20 = fdiv double %19, 7.000000e+00, !dbg !61
  %21 = load i32, ptr %2, align 4, !dbg !62
  %22 = sext i32 %21 to i64, !dbg !63
  %23 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %22, !dbg !63
  %24 = load i32, ptr %3, align 4, !dbg !64
  %25 = sext i32 %24 to i64, !dbg !63
  %26 = getelementptr inbounds [64 x double], ptr %23, i64 0, i64 %25, !dbg !63
  store double %20, ptr %26, align 8, !dbg !65
  %27 = load i32, ptr %2, align 4, !dbg !66
  %28 = mul nsw i32 3, %27, !dbg !67
  %29 = load i32, ptr %3, align 4, !dbg !68
  %30 = add nsw i32 %28, %29, !dbg !69
  %31 = srem i32 %30, 5, !dbg !70
  %32 = sitofp i32 %31 to double, !dbg !71
  %33 = fdiv double %32, 5.000000e+00, !dbg !72
  %34 = load i32, ptr %2, align 4, !dbg !73
  %35 = sext i32 %34 to i64, !dbg !74
  %36 = getelementptr inbounds [64 x [64 x double]], ptr @B, i64 0, i64 %35, !dbg !74
  %37 = load i32, ptr %3, align 4, !dbg !75
  %38 = sext i32 %37 to i64, !dbg !74
  %39 = getelementptr inbounds [64 x double], ptr %36, i64 0, i64 %38, !dbg !74
  store double %33, ptr %39, align 8, !dbg !76
  %40 = load i32, ptr %2, align 4, !dbg !77
  %41 = sext i32 %40 to i64, !dbg !78
  %42 = getelementptr inbounds [64 x [64 x double]], ptr @C, i64 0, i64 %41, !dbg !78
  %43 = load i32, ptr %3, align 4, !dbg !79
  %44 = sext i32 %43 to i64, !dbg !78
  %45 = getelementptr inbounds [64 x double], ptr %42, i64 0, i64 %44, !dbg !78
  store double 0.000000e+00, ptr %45, align 8, !dbg !80
  br label %46, !dbg !81

46:                                               ; preds = %13
  %47 = load i32, ptr %3, align 4, !dbg !82
  %48 = add nsw i32 %47, 1, !dbg !82
  store i32 %48, ptr %3, align 4, !dbg !82
  br label %10, !dbg !83, !llvm.loop !84

49:                                               ; preds = %10
  br label %50, !dbg !85

50:                                               ; preds = %49
  %51 = load i32, ptr %2, align 4, !dbg !87
  %52 = add nsw i32 %51, 1, !dbg !87
  store i32 %52, ptr %2, align 4, !dbg !87
  br label %6, !dbg !88, !llvm.loop !89

53:                                               ; preds = %6
  store i32 0, ptr %2, align 4, !dbg !91
  br label %54, !dbg !93

54:                                               ; preds = %102, %53
  %55 = load i32, ptr %2, align 4, !dbg !94
  %56 = icmp slt i32 %55, 64, !dbg !96
  br i1 %56, label %57, label %105, !dbg !97

57:                                               ; preds = %54
  store i32 0, ptr %3, align 4, !dbg !98
  br label %58, !dbg !100

58:                                               ; preds = %98, %57
  %59 = load i32, ptr %3, align 4, !dbg !101
  %60 = icmp slt i32 %59, 64, !dbg !103
  br i1 %60, label %61, label %101, !dbg !104

61:                                               ; preds = %58
  store i32 0, ptr %4, align 4, !dbg !105
  br label %62, !dbg !107

62:                                               ; preds = %94, %61
  %63 = load i32, ptr %4, align 4, !dbg !108
  %64 = icmp slt i32 %63, 64, !dbg !110
  br i1 %64, label %65, label %97, !dbg !111

65:                                               ; preds = %62
  %66 = load i32, ptr %2, align 4, !dbg !112
  %67 = sext i32 %66 to i64, !dbg !113
  %68 = getelementptr inbounds [64 x [64 x double]], ptr @C, i64 0, i64 %67, !dbg !113
  %69 = load i32, ptr %3, align 4, !dbg !114
  %70 = sext i32 %69 to i64, !dbg !113
  %71 = getelementptr inbounds [64 x double], ptr %68, i64 0, i64 %70, !dbg !113
  %72 = load double, ptr %71, align 8, !dbg !113
  %73 = load i32, ptr %2, align 4, !dbg !115
  %74 = sext i32 %73 to i64, !dbg !116
  %75 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %74, !dbg !116
  %76 = load i32, ptr %4, align 4, !dbg !117
  %77 = sext i32 %76 to i64, !dbg !116
  %78 = getelementptr inbounds [64 x double], ptr %75, i64 0, i64 %77, !dbg !116
  %79 = load double, ptr %78, align 8, !dbg !116
  %80 = load i32, ptr %4, align 4, !dbg !118
  %81 = sext i32 %80 to i64, !dbg !119
  %82 = getelementptr inbounds [64 x [64 x double]], ptr @B, i64 0, i64 %81, !dbg !119
  %83 = load i32, ptr %3, align 4, !dbg !120
  %84 = sext i32 %83 to i64, !dbg !119
  %85 = getelementptr inbounds [64 x double], ptr %82, i64 0, i64 %84, !dbg !119
  %86 = load double, ptr %85, align 8, !dbg !119
  %87 = call double @llvm.fmuladd.f64(double %79, double %86, double %72), !dbg !121
  %88 = load i32, ptr %2, align 4, !dbg !122
  %89 = sext i32 %88 to i64, !dbg !123
  %90 = getelementptr inbounds [64 x [64 x double]], ptr @C, i64 0, i64 %89, !dbg !123
  %91 = load i32, ptr %3, align 4, !dbg !124
  %92 = sext i32 %91 to i64, !dbg !123
  %93 = getelementptr inbounds [64 x double], ptr %90, i64 0, i64 %92, !dbg !123
  store double %87, ptr %93, align 8, !dbg !125
  br label %94, !dbg !123

94:                                               ; preds = %65
  %95 = load i32, ptr %4, align 4, !dbg !126
  %96 = add nsw i32 %95, 1, !dbg !126
  store i32 %96, ptr %4, align 4, !dbg !126
  br label %62, !dbg !127, !llvm.loop !128

97:                                               ; preds = %62
  br label %98, !dbg !129

98:                                               ; preds = %97
  %99 = load i32, ptr %3, align 4, !dbg !130
  %100 = add nsw i32 %99, 1, !dbg !130
  store i32 %100, ptr %3, align 4, !dbg !130
  br label %58, !dbg !131, !llvm.loop !132

101:                                              ; preds = %58
  br label %102, !dbg !133

102:                                              ; preds = %101
  %103 = load i32, ptr %2, align 4, !dbg !134
  %104 = add nsw i32 %103, 1, !dbg !134
  store i32 %104, ptr %2, align 4, !dbg !134
  br label %54, !dbg !135, !llvm.loop !136

105:                                              ; preds = %54
    #dbg_declare(ptr %5, !138, !DIExpression(), !139)
  store double 0.000000e+00, ptr %5, align 8, !dbg !139
  store i32 0, ptr %2, align 4, !dbg !140
  br label %106, !dbg !142

106:                                              ; preds = %127, %105
  %107 = load i32, ptr %2, align 4, !dbg !143
  %108 = icmp slt i32 %107, 64, !dbg !145
  br i1 %108, label %109, label %130, !dbg !146

109:                                              ; preds = %106
  store i32 0, ptr %3, align 4, !dbg !147
  br label %110, !dbg !149

110:                                              ; preds = %123, %109
  %111 = load i32, ptr %3, align 4, !dbg !150
  %112 = icmp slt i32 %111, 64, !dbg !152
  br i1 %112, label %113, label %126, !dbg !153

113:                                              ; preds = %110
  %114 = load i32, ptr %2, align 4, !dbg !154
  %115 = sext i32 %114 to i64, !dbg !155
  %116 = getelementptr inbounds [64 x [64 x double]], ptr @C, i64 0, i64 %115, !dbg !155
  %117 = load i32, ptr %3, align 4, !dbg !156
  %118 = sext i32 %117 to i64, !dbg !155
  %119 = getelementptr inbounds [64 x double], ptr %116, i64 0, i64 %118, !dbg !155
  %120 = load double, ptr %119, align 8, !dbg !155
  %121 = load double, ptr %5, align 8, !dbg !157
  %122 = fadd double %121, %120, !dbg !157
  store double %122, ptr %5, align 8, !dbg !157
  br label %123, !dbg !158

123:                                              ; preds = %113
  %124 = load i32, ptr %3, align 4, !dbg !159
  %125 = add nsw i32 %124, 1, !dbg !159
  store i32 %125, ptr %3, align 4, !dbg !159
  br label %110, !dbg !160, !llvm.loop !161

126:                                              ; preds = %110
  br label %127, !dbg !162

127:                                              ; preds = %126
  %128 = load i32, ptr %2, align 4, !dbg !163
  %129 = add nsw i32 %128, 1, !dbg !163
  store i32 %129, ptr %2, align 4, !dbg !163
  br label %106, !dbg !164, !llvm.loop !165

130:                                              ; preds = %106
  %131 = load double, ptr %5, align 8, !dbg !167
  %132 = call i32 (ptr, ...) @printf(ptr noundef @.str, double noundef %131), !dbg !168
  ret i32 0, !dbg !169
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

declare i32 @printf(ptr noundef, ...) #2

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!21, !22, !23, !24, !25, !26, !27}
!llvm.ident = !{!28}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "A", scope: !2, file: !9, line: 21, type: !16, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !6, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "samples/c/matmul.c", directory: ".", checksumkind: CSK_MD5, checksum: "e148bee24b423b9b48b325a935fe0e78")
!4 = !{!5}
!5 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!6 = !{!7, !0, !14, !19}
!7 = !DIGlobalVariableExpression(var: !8, expr: !DIExpression())
!8 = distinct !DIGlobalVariable(scope: null, file: !9, line: 46, type: !10, isLocal: true, isDefinition: true)
!9 = !DIFile(filename: "samples/c/matmul.c", directory: ".", checksumkind: CSK_MD5, checksum: "e148bee24b423b9b48b325a935fe0e78")
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 184, elements: !12)
!11 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!12 = !{!13}
!13 = !DISubrange(count: 23)
!14 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression())
!15 = distinct !DIGlobalVariable(name: "B", scope: !2, file: !9, line: 21, type: !16, isLocal: false, isDefinition: true)
!16 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 262144, elements: !17)
!17 = !{!18, !18}
!18 = !DISubrange(count: 64)
!19 = !DIGlobalVariableExpression(var: !20, expr: !DIExpression())
!20 = distinct !DIGlobalVariable(name: "C", scope: !2, file: !9, line: 21, type: !16, isLocal: false, isDefinition: true)
!21 = !{i32 7, !"Dwarf Version", i32 5}
!22 = !{i32 2, !"Debug Info Version", i32 3}
!23 = !{i32 1, !"wchar_size", i32 4}
!24 = !{i32 8, !"PIC Level", i32 2}
!25 = !{i32 7, !"PIE Level", i32 2}
!26 = !{i32 7, !"uwtable", i32 2}
!27 = !{i32 7, !"frame-pointer", i32 2}
!28 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!29 = distinct !DISubprogram(name: "main", scope: !9, file: !9, line: 23, type: !30, scopeLine: 24, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !33)
!30 = !DISubroutineType(types: !31)
!31 = !{!32}
!32 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!33 = !{}
!34 = !DILocalVariable(name: "i", scope: !29, file: !9, line: 25, type: !32)
!35 = !DILocation(line: 25, column: 9, scope: !29)
!36 = !DILocalVariable(name: "j", scope: !29, file: !9, line: 25, type: !32)
!37 = !DILocation(line: 25, column: 12, scope: !29)
!38 = !DILocalVariable(name: "k", scope: !29, file: !9, line: 25, type: !32)
!39 = !DILocation(line: 25, column: 15, scope: !29)
!40 = !DILocation(line: 28, column: 12, scope: !41)
!41 = distinct !DILexicalBlock(scope: !29, file: !9, line: 28, column: 5)
!42 = !DILocation(line: 28, column: 10, scope: !41)
!43 = !DILocation(line: 28, column: 17, scope: !44)
!44 = distinct !DILexicalBlock(scope: !41, file: !9, line: 28, column: 5)
!45 = !DILocation(line: 28, column: 19, scope: !44)
!46 = !DILocation(line: 28, column: 5, scope: !41)
!47 = !DILocation(line: 29, column: 16, scope: !48)
!48 = distinct !DILexicalBlock(scope: !44, file: !9, line: 29, column: 9)
!49 = !DILocation(line: 29, column: 14, scope: !48)
!50 = !DILocation(line: 29, column: 21, scope: !51)
!51 = distinct !DILexicalBlock(scope: !48, file: !9, line: 29, column: 9)
!52 = !DILocation(line: 29, column: 23, scope: !51)
!53 = !DILocation(line: 29, column: 9, scope: !48)
!54 = !DILocation(line: 30, column: 33, scope: !55)
!55 = distinct !DILexicalBlock(scope: !51, file: !9, line: 29, column: 33)
!56 = !DILocation(line: 30, column: 41, scope: !55)
!57 = !DILocation(line: 30, column: 39, scope: !55)
!58 = !DILocation(line: 30, column: 35, scope: !55)
!59 = !DILocation(line: 30, column: 44, scope: !55)
!60 = !DILocation(line: 30, column: 23, scope: !55)
!61 = !DILocation(line: 30, column: 49, scope: !55)
!62 = !DILocation(line: 30, column: 15, scope: !55)
!63 = !DILocation(line: 30, column: 13, scope: !55)
!64 = !DILocation(line: 30, column: 18, scope: !55)
!65 = !DILocation(line: 30, column: 21, scope: !55)
!66 = !DILocation(line: 31, column: 37, scope: !55)
!67 = !DILocation(line: 31, column: 35, scope: !55)
!68 = !DILocation(line: 31, column: 41, scope: !55)
!69 = !DILocation(line: 31, column: 39, scope: !55)
!70 = !DILocation(line: 31, column: 44, scope: !55)
!71 = !DILocation(line: 31, column: 23, scope: !55)
!72 = !DILocation(line: 31, column: 49, scope: !55)
!73 = !DILocation(line: 31, column: 15, scope: !55)
!74 = !DILocation(line: 31, column: 13, scope: !55)
!75 = !DILocation(line: 31, column: 18, scope: !55)
!76 = !DILocation(line: 31, column: 21, scope: !55)
!77 = !DILocation(line: 32, column: 15, scope: !55)
!78 = !DILocation(line: 32, column: 13, scope: !55)
!79 = !DILocation(line: 32, column: 18, scope: !55)
!80 = !DILocation(line: 32, column: 21, scope: !55)
!81 = !DILocation(line: 33, column: 9, scope: !55)
!82 = !DILocation(line: 29, column: 29, scope: !51)
!83 = !DILocation(line: 29, column: 9, scope: !51)
!84 = distinct !{!84, !53, !85, !86}
!85 = !DILocation(line: 33, column: 9, scope: !48)
!86 = !{!"llvm.loop.mustprogress"}
!87 = !DILocation(line: 28, column: 25, scope: !44)
!88 = !DILocation(line: 28, column: 5, scope: !44)
!89 = distinct !{!89, !46, !90, !86}
!90 = !DILocation(line: 33, column: 9, scope: !41)
!91 = !DILocation(line: 36, column: 12, scope: !92)
!92 = distinct !DILexicalBlock(scope: !29, file: !9, line: 36, column: 5)
!93 = !DILocation(line: 36, column: 10, scope: !92)
!94 = !DILocation(line: 36, column: 17, scope: !95)
!95 = distinct !DILexicalBlock(scope: !92, file: !9, line: 36, column: 5)
!96 = !DILocation(line: 36, column: 19, scope: !95)
!97 = !DILocation(line: 36, column: 5, scope: !92)
!98 = !DILocation(line: 37, column: 16, scope: !99)
!99 = distinct !DILexicalBlock(scope: !95, file: !9, line: 37, column: 9)
!100 = !DILocation(line: 37, column: 14, scope: !99)
!101 = !DILocation(line: 37, column: 21, scope: !102)
!102 = distinct !DILexicalBlock(scope: !99, file: !9, line: 37, column: 9)
!103 = !DILocation(line: 37, column: 23, scope: !102)
!104 = !DILocation(line: 37, column: 9, scope: !99)
!105 = !DILocation(line: 38, column: 20, scope: !106)
!106 = distinct !DILexicalBlock(scope: !102, file: !9, line: 38, column: 13)
!107 = !DILocation(line: 38, column: 18, scope: !106)
!108 = !DILocation(line: 38, column: 25, scope: !109)
!109 = distinct !DILexicalBlock(scope: !106, file: !9, line: 38, column: 13)
!110 = !DILocation(line: 38, column: 27, scope: !109)
!111 = !DILocation(line: 38, column: 13, scope: !106)
!112 = !DILocation(line: 39, column: 29, scope: !109)
!113 = !DILocation(line: 39, column: 27, scope: !109)
!114 = !DILocation(line: 39, column: 32, scope: !109)
!115 = !DILocation(line: 39, column: 39, scope: !109)
!116 = !DILocation(line: 39, column: 37, scope: !109)
!117 = !DILocation(line: 39, column: 42, scope: !109)
!118 = !DILocation(line: 39, column: 49, scope: !109)
!119 = !DILocation(line: 39, column: 47, scope: !109)
!120 = !DILocation(line: 39, column: 52, scope: !109)
!121 = !DILocation(line: 39, column: 35, scope: !109)
!122 = !DILocation(line: 39, column: 19, scope: !109)
!123 = !DILocation(line: 39, column: 17, scope: !109)
!124 = !DILocation(line: 39, column: 22, scope: !109)
!125 = !DILocation(line: 39, column: 25, scope: !109)
!126 = !DILocation(line: 38, column: 33, scope: !109)
!127 = !DILocation(line: 38, column: 13, scope: !109)
!128 = distinct !{!128, !111, !129, !86}
!129 = !DILocation(line: 39, column: 53, scope: !106)
!130 = !DILocation(line: 37, column: 29, scope: !102)
!131 = !DILocation(line: 37, column: 9, scope: !102)
!132 = distinct !{!132, !104, !133, !86}
!133 = !DILocation(line: 39, column: 53, scope: !99)
!134 = !DILocation(line: 36, column: 25, scope: !95)
!135 = !DILocation(line: 36, column: 5, scope: !95)
!136 = distinct !{!136, !97, !137, !86}
!137 = !DILocation(line: 39, column: 53, scope: !92)
!138 = !DILocalVariable(name: "sum", scope: !29, file: !9, line: 42, type: !5)
!139 = !DILocation(line: 42, column: 12, scope: !29)
!140 = !DILocation(line: 43, column: 12, scope: !141)
!141 = distinct !DILexicalBlock(scope: !29, file: !9, line: 43, column: 5)
!142 = !DILocation(line: 43, column: 10, scope: !141)
!143 = !DILocation(line: 43, column: 17, scope: !144)
!144 = distinct !DILexicalBlock(scope: !141, file: !9, line: 43, column: 5)
!145 = !DILocation(line: 43, column: 19, scope: !144)
!146 = !DILocation(line: 43, column: 5, scope: !141)
!147 = !DILocation(line: 44, column: 16, scope: !148)
!148 = distinct !DILexicalBlock(scope: !144, file: !9, line: 44, column: 9)
!149 = !DILocation(line: 44, column: 14, scope: !148)
!150 = !DILocation(line: 44, column: 21, scope: !151)
!151 = distinct !DILexicalBlock(scope: !148, file: !9, line: 44, column: 9)
!152 = !DILocation(line: 44, column: 23, scope: !151)
!153 = !DILocation(line: 44, column: 9, scope: !148)
!154 = !DILocation(line: 45, column: 22, scope: !151)
!155 = !DILocation(line: 45, column: 20, scope: !151)
!156 = !DILocation(line: 45, column: 25, scope: !151)
!157 = !DILocation(line: 45, column: 17, scope: !151)
!158 = !DILocation(line: 45, column: 13, scope: !151)
!159 = !DILocation(line: 44, column: 29, scope: !151)
!160 = !DILocation(line: 44, column: 9, scope: !151)
!161 = distinct !{!161, !153, !162, !86}
!162 = !DILocation(line: 45, column: 26, scope: !148)
!163 = !DILocation(line: 43, column: 25, scope: !144)
!164 = !DILocation(line: 43, column: 5, scope: !144)
!165 = distinct !{!165, !146, !166, !86}
!166 = !DILocation(line: 45, column: 26, scope: !141)
!167 = !DILocation(line: 46, column: 39, scope: !29)
!168 = !DILocation(line: 46, column: 5, scope: !29)
!169 = !DILocation(line: 47, column: 5, scope: !29)
