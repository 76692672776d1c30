; ModuleID = 'samples/c/lu.c'
source_filename = "samples/c/lu.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@A = dso_local global [64 x [64 x double]] zeroinitializer, align 16, !dbg !0
@.str = private unnamed_addr constant [19 x i8] c"lu checksum %.17g\0A\00", align 1, !dbg !7

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main() #0 !dbg !25 {
  %1 = alloca i32, align 4
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  store i32 0, ptr %1, align 4
    #dbg_declare(ptr %2, !30, !DIExpression(), !31)
    #dbg_declare(ptr %3, !32, !DIExpression(), !33)
    #dbg_declare(ptr %4, !34, !DIExpression(), !35)
  store i32 0, ptr %2, align 4, !dbg !36
  br label %6, !dbg !38

6:                                                ; preds = %39, %0
  %7 = load i32, ptr %2, align 4, !dbg !39
  %8 = icmp slt i32 %7, 64, !dbg !41
  br i1 %8, label %9, label %42, !dbg !42

9:                                                ; preds = %6
  store i32 0, ptr %3, align 4, !dbg !43
  br label %10, !dbg !45

10:                                               ; preds = %35, %9
  %11 = load i32, ptr %3, align 4, !dbg !46
  %12 = icmp slt i32 %11, 64, !dbg !48
  br i1 %12, label %13, label %38, !dbg !49

13:                                               ; preds = %10
  %14 = load i32, ptr %2, align 4, !dbg !50
  %15 = load i32, ptr %3, align 4, !dbg !51
  %16 = icmp eq i32 %14, %15, !dbg !52
  br i1 %16, label %17, label %18, !dbg !53

17:                                               ; preds = %13
  br label %27, !dbg !53

18:                                               ; preds = %13
  %19 = load i32, ptr %2, align 4, !dbg !54
  %20 = mul nsw i32 %19, 7, !dbg !55
  %21 = load i32, ptr %3, align 4, !dbg !56
  %22 = mul nsw i32 %21, 3, !dbg !57
  %23 = add nsw i32 %20, %22, !dbg !58
  %24 = srem i32 %23, 11, !dbg !59
  %25 = sitofp i32 %24 to double, !dbg !60
  %26 = fdiv double %25, 1.100000e+01, !dbg !61
  br label %27, !dbg !53

27:                                               ; preds = %18, %17
  %28 = phi double [ 6.500000e+01, %17 ], [ %26, %18 ], !dbg !53
  %29 = load i32, ptr %2, align 4, !dbg !62
  %30 = sext i32 %29 to i64, !dbg !63
  %31 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %30, !dbg !63
  %32 = load i32, ptr %3, align 4, !dbg !64
  %33 = sext i32 %32 to i64, !dbg !63
  %34 = getelementptr inbounds [64 x double], ptr %31, i64 0, i64 %33, !dbg !63
  store double %28, ptr %34, align 8, !dbg !65
  br label %35, !dbg !63

35:                                               ; preds = %27
  %36 = load i32, ptr %3, align 4, !dbg !66
  %37 = add nsw i32 %36, 1, !dbg !66
  store i32 %37, ptr %3, align 4, !dbg !66
  br label %10, !dbg !67, !llvm.loop !68

38:                                               ; preds = %10
  br label %39, !dbg !69

39:                                               ; preds = %38
  %40 = load i32, ptr %2, align 4, !dbg !71
  %41 = add nsw i32 %40, 1, !dbg !71
  store i32 %41, ptr %2, align 4, !dbg !71
  br label %6, !dbg !72, !llvm.loop !73

42:                                               ; preds = %6
  store i32 0, ptr %4, align 4, !dbg !75
  br label %43, !dbg !77

43:                                               ; preds = %127, %42
  %44 = load i32, ptr %4, align 4, !dbg !78
  %45 = icmp slt i32 %44, 63, !dbg !80
  br i1 %45, label %46, label %130, !dbg !81

46:                                               ; preds = %43
  %47 = load i32, ptr %4, align 4, !dbg !82
  %48 = add nsw i32 %47, 1, !dbg !85
  store i32 %48, ptr %2, align 4, !dbg !86
  br label %49, !dbg !87

49:                                               ; preds = %74, %46
  %50 = load i32, ptr %2, align 4, !dbg !88
  %51 = icmp slt i32 %50, 64, !dbg !90
  br i1 %51, label %52, label %77, !dbg !91

52:                                               ; preds = %49
  %53 = load i32, ptr %2, align 4, !dbg !92
  %54 = sext i32 %53 to i64, !dbg !93
  %55 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %54, !dbg !93
  %56 = load i32, ptr %4, align 4, !dbg !94
  %57 = sext i32 %56 to i64, !dbg !93
  %58 = getelementptr inbounds [64 x double], ptr %55, i64 0, i64 %57, !dbg !93
  %59 = load double, ptr %58, align 8, !dbg !93
  %60 = load i32, ptr %4, align 4, !dbg !95
  %61 = sext i32 %60 to i64, !dbg !96
  %62 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %61, !dbg !96
  %63 = load i32, ptr %4, align 4, !dbg !97
  %64 = sext i32 %63 to i64, !dbg !96
  %65 = getelementptr inbounds [64 x double], ptr %62, i64 0, i64 %64, !dbg !96
  %66 = load double, ptr %65, align 8, !dbg !96
  %67 = fdiv double %59, %66, !dbg !98
  %68 = load i32, ptr %2, align 4, !dbg !99
  %69 = sext i32 %68 to i64, !dbg !100
  %70 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %69, !dbg !100
  %71 = load i32, ptr %4, align 4, !dbg !101
  %72 = sext i32 %71 to i64, !dbg !100
  %73 = getelementptr inbounds [64 x double], ptr %70, i64 0, i64 %72, !dbg !100
  store double %67, ptr %73, align 8, !dbg !102
  br label %74, !dbg !100

74:                                               ; preds = %52
  %75 = load i32, ptr %2, align 4, !dbg !103
  %76 = add nsw i32 %75, 1, !dbg !103
  store i32 %76, ptr %2, align 4, !dbg !103
  br label %49, !dbg !104, !llvm.loop !105

77:                                               ; preds = %49
  %78 = load i32, ptr %4, align 4, !dbg !107
  %79 = add nsw i32 %78, 1, !dbg !109
  store i32 %79, ptr %2, align 4, !dbg !110
  br label %80, !dbg !111

80:                                               ; preds = %123, %77
  %81 = load i32, ptr %2, align 4, !dbg !112
  %82 = icmp slt i32 %81, 64, !dbg !114
  br i1 %82, label %83, label %126, !dbg !115

83:                                               ; preds = %80
  %84 = load i32, ptr %4, align 4, !dbg !116
  %85 = add nsw i32 %84, 1, !dbg !118
  store i32 %85, ptr %3, align 4, !dbg !119
  br label %86, !dbg !120

86:                                               ; preds = %119, %83
  %87 = load i32, ptr %3, align 4, !dbg !121
  %88 = icmp slt i32 %87, 64, !dbg !123
  br i1 %88, label %89, label %122, !dbg !124

89:                                               ; preds = %86
  %90 = load i32, ptr %2, align 4, !dbg !125
  %91 = sext i32 %90 to i64, !dbg !126
  %92 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %91, !dbg !126
  %93 = load i32, ptr %3, align 4, !dbg !127
  %94 = sext i32 %93 to i64, !dbg !126
  %95 = getelementptr inbounds [64 x double], ptr %92, i64 0, i64 %94, !dbg !126
  %96 = load double, ptr %95, align 8, !dbg !126
  %97 = load i32, ptr %2, align 4, !dbg !128
  %98 = sext i32 %97 to i64, !dbg !129
  %99 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %98, !dbg !129
  %100 = load i32, ptr %4, align 4, !dbg !130
  %101 = sext i32 %100 to i64, !dbg !129
  %102 = getelementptr inbounds [64 x double], ptr %99, i64 0, i64 %101, !dbg !129
  %103 = load double, ptr %102, align 8, !dbg !129
  %104 = load i32, ptr %4, align 4, !dbg !131
  %105 = sext i32 %104 to i64, !dbg !132
  %106 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %105, !dbg !132
  %107 = load i32, ptr %3, align 4, !dbg !133
  %108 = sext i32 %107 to i64, !dbg !132
  %109 = getelementptr inbounds [64 x double], ptr %106, i64 0, i64 %108, !dbg !132
  %110 = load double, ptr %109, align 8, !dbg !132
  %111 = fneg double %103, !dbg !134
  %112 = call double @llvm.fmuladd.f64(double %111, double %110, double %96), !dbg !134
  %113 = load i32, ptr %2, align 4, !dbg !135
  %114 = sext i32 %113 to i64, !dbg !136
  %115 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %114, !dbg !136
  %116 = load i32, ptr %3, align 4, !dbg !137
  %117 = sext i32 %116 to i64, !dbg !136
  %118 = getelementptr inbounds [64 x double], ptr %115, i64 0, i64 %117, !dbg !136
  store double %112, ptr %118, align 8, !dbg !138
  br label %119, !dbg !136

119:                                              ; preds = %89
  %120 = load i32, ptr %3, align 4, !dbg !139
  %121 = add nsw i32 %120, 1, !dbg !139
  store i32 %121, ptr %3, align 4, !dbg !139
  br label %86, !dbg !140, !llvm.loop !141

122:                                              ; preds = %86
  br label %123, !dbg !142

123:                                              ; preds = %122
  %124 = load i32, ptr %2, align 4, !dbg !143
  %125 = add nsw i32 %124, 1, !dbg !143
  store i32 %125, ptr %2, align 4, !dbg !143
  br label %80, !dbg !144, !llvm.loop !145

126:                                              ; preds = %80
  br label %127, !dbg !147

127:                                              ; preds = %126
  %128 = load i32, ptr %4, align 4, !dbg !148
  %129 = add nsw i32 %128, 1, !dbg !148
  store i32 %129, ptr %4, align 4, !dbg !148
  br label %43, !dbg !149, !llvm.loop !150

130:                                              ; preds = %43
    #dbg_declare(ptr %5, !152, !DIExpression(), !153)
  store double 0.000000e+00, ptr %5, align 8, !dbg !153
  store i32 0, ptr %2, align 4, !dbg !154
  br label %131, !dbg !156

131:                                              ; preds = %152, %130
  %132 = load i32, ptr %2, align 4, !dbg !157
  %133 = icmp slt i32 %132, 64, !dbg !159
  br i1 %133, label %134, label %155, !dbg !160

134:                                              ; preds = %131
  store i32 0, ptr %3, align 4, !dbg !161
  br label %135, !dbg !163

135:                                              ; preds = %148, %134
  %136 = load i32, ptr %3, align 4, !dbg !164
  %137 = icmp slt i32 %136, 64, !dbg !166
  br i1 %137, label %138, label %151, !dbg !167

138:                                              ; preds = %135
  %139 = load i32, ptr %2, align 4, !dbg !168
  %140 = sext i32 %139 to i64, !dbg !169
  %141 = getelementptr inbounds [64 x [64 x double]], ptr @A, i64 0, i64 %140, !dbg !169
  %142 = load i32, ptr %3, align 4, !dbg !170
  %143 = sext i32 %142 to i64, !dbg !169
  %144 = getelementptr inbounds [64 x double], ptr %141, i64 0, i64 %143, !dbg !169
  %145 = load double, ptr %144, align 8, !dbg !169
  %146 = load double, ptr %5, align 8, !dbg !171
  %147 = fadd double %146, %145, !dbg !171
  store double %147, ptr %5, align 8, !dbg !171
  br label %148, !dbg !172

148:                                              ; preds = %138
  %149 = load i32, ptr %3, align 4, !dbg !173
  %150 = add nsw i32 %149, 1, !dbg !173
  store i32 %150, ptr %3, align 4, !dbg !173
  br label %135, !dbg !174, !llvm.loop !175

151:                                              ; preds = %135
  br label %152, !dbg !176

152:                                              ; preds = %151
  %153 = load i32, ptr %2, align 4, !dbg !177
  %154 = add nsw i32 %153, 1, !dbg !177
  store i32 %154, ptr %2, align 4, !dbg !177
  br label %131, !dbg !178, !llvm.loop !179

155:                                              ; preds = %131
  %156 = load double, ptr %5, align 8, !dbg !181
  %157 = call i32 (ptr, ...) @printf(ptr noundef @.str, double noundef %156), !dbg !182
  ret i32 0, !dbg !183
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

declare i32 @printf(ptr noundef, ...) #2

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!17, !18, !19, !20, !21, !22, !23}
!llvm.ident = !{!24}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "A", scope: !2, file: !9, line: 26, type: !14, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !6, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "samples/c/lu.c", directory: ".", checksumkind: CSK_MD5, checksum: "0ac36e3f439ef1881f05761b96fa80b5")
!4 = !{!5}
!5 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!6 = !{!7, !0}
!7 = !DIGlobalVariableExpression(var: !8, expr: !DIExpression())
!8 = distinct !DIGlobalVariable(scope: null, file: !9, line: 51, type: !10, isLocal: true, isDefinition: true)
!9 = !DIFile(filename: "samples/c/lu.c", directory: ".", checksumkind: CSK_MD5, checksum: "0ac36e3f439ef1881f05761b96fa80b5")
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 152, elements: !12)
!11 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!12 = !{!13}
!13 = !DISubrange(count: 19)
!14 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 262144, elements: !15)
!15 = !{!16, !16}
!16 = !DISubrange(count: 64)
!17 = !{i32 7, !"Dwarf Version", i32 5}
!18 = !{i32 2, !"Debug Info Version", i32 3}
!19 = !{i32 1, !"wchar_size", i32 4}
!20 = !{i32 8, !"PIC Level", i32 2}
!21 = !{i32 7, !"PIE Level", i32 2}
!22 = !{i32 7, !"uwtable", i32 2}
!23 = !{i32 7, !"frame-pointer", i32 2}
!24 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!25 = distinct !DISubprogram(name: "main", scope: !9, file: !9, line: 28, type: !26, scopeLine: 29, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!26 = !DISubroutineType(types: !27)
!27 = !{!28}
!28 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!29 = !{}
!30 = !DILocalVariable(name: "i", scope: !25, file: !9, line: 30, type: !28)
!31 = !DILocation(line: 30, column: 9, scope: !25)
!32 = !DILocalVariable(name: "j", scope: !25, file: !9, line: 30, type: !28)
!33 = !DILocation(line: 30, column: 12, scope: !25)
!34 = !DILocalVariable(name: "k", scope: !25, file: !9, line: 30, type: !28)
!35 = !DILocation(line: 30, column: 15, scope: !25)
!36 = !DILocation(line: 33, column: 12, scope: !37)
!37 = distinct !DILexicalBlock(scope: !25, file: !9, line: 33, column: 5)
!38 = !DILocation(line: 33, column: 10, scope: !37)
!39 = !DILocation(line: 33, column: 17, scope: !40)
!40 = distinct !DILexicalBlock(scope: !37, file: !9, line: 33, column: 5)
!41 = !DILocation(line: 33, column: 19, scope: !40)
!42 = !DILocation(line: 33, column: 5, scope: !37)
!43 = !DILocation(line: 34, column: 16, scope: !44)
!44 = distinct !DILexicalBlock(scope: !40, file: !9, line: 34, column: 9)
!45 = !DILocation(line: 34, column: 14, scope: !44)
!46 = !DILocation(line: 34, column: 21, scope: !47)
!47 = distinct !DILexicalBlock(scope: !44, file: !9, line: 34, column: 9)
!48 = !DILocation(line: 34, column: 23, scope: !47)
!49 = !DILocation(line: 34, column: 9, scope: !44)
!50 = !DILocation(line: 35, column: 24, scope: !47)
!51 = !DILocation(line: 35, column: 29, scope: !47)
!52 = !DILocation(line: 35, column: 26, scope: !47)
!53 = !DILocation(line: 35, column: 23, scope: !47)
!54 = !DILocation(line: 35, column: 62, scope: !47)
!55 = !DILocation(line: 35, column: 64, scope: !47)
!56 = !DILocation(line: 35, column: 70, scope: !47)
!57 = !DILocation(line: 35, column: 72, scope: !47)
!58 = !DILocation(line: 35, column: 68, scope: !47)
!59 = !DILocation(line: 35, column: 77, scope: !47)
!60 = !DILocation(line: 35, column: 52, scope: !47)
!61 = !DILocation(line: 35, column: 83, scope: !47)
!62 = !DILocation(line: 35, column: 15, scope: !47)
!63 = !DILocation(line: 35, column: 13, scope: !47)
!64 = !DILocation(line: 35, column: 18, scope: !47)
!65 = !DILocation(line: 35, column: 21, scope: !47)
!66 = !DILocation(line: 34, column: 29, scope: !47)
!67 = !DILocation(line: 34, column: 9, scope: !47)
!68 = distinct !{!68, !49, !69, !70}
!69 = !DILocation(line: 35, column: 85, scope: !44)
!70 = !{!"llvm.loop.mustprogress"}
!71 = !DILocation(line: 33, column: 25, scope: !40)
!72 = !DILocation(line: 33, column: 5, scope: !40)
!73 = distinct !{!73, !42, !74, !70}
!74 = !DILocation(line: 35, column: 85, scope: !37)
!75 = !DILocation(line: 38, column: 12, scope: !76)
!76 = distinct !DILexicalBlock(scope: !25, file: !9, line: 38, column: 5)
!77 = !DILocation(line: 38, column: 10, scope: !76)
!78 = !DILocation(line: 38, column: 17, scope: !79)
!79 = distinct !DILexicalBlock(scope: !76, file: !9, line: 38, column: 5)
!80 = !DILocation(line: 38, column: 19, scope: !79)
!81 = !DILocation(line: 38, column: 5, scope: !76)
!82 = !DILocation(line: 39, column: 18, scope: !83)
!83 = distinct !DILexicalBlock(scope: !84, file: !9, line: 39, column: 9)
!84 = distinct !DILexicalBlock(scope: !79, file: !9, line: 38, column: 33)
!85 = !DILocation(line: 39, column: 20, scope: !83)
!86 = !DILocation(line: 39, column: 16, scope: !83)
!87 = !DILocation(line: 39, column: 14, scope: !83)
!88 = !DILocation(line: 39, column: 25, scope: !89)
!89 = distinct !DILexicalBlock(scope: !83, file: !9, line: 39, column: 9)
!90 = !DILocation(line: 39, column: 27, scope: !89)
!91 = !DILocation(line: 39, column: 9, scope: !83)
!92 = !DILocation(line: 40, column: 25, scope: !89)
!93 = !DILocation(line: 40, column: 23, scope: !89)
!94 = !DILocation(line: 40, column: 28, scope: !89)
!95 = !DILocation(line: 40, column: 35, scope: !89)
!96 = !DILocation(line: 40, column: 33, scope: !89)
!97 = !DILocation(line: 40, column: 38, scope: !89)
!98 = !DILocation(line: 40, column: 31, scope: !89)
!99 = !DILocation(line: 40, column: 15, scope: !89)
!100 = !DILocation(line: 40, column: 13, scope: !89)
!101 = !DILocation(line: 40, column: 18, scope: !89)
!102 = !DILocation(line: 40, column: 21, scope: !89)
!103 = !DILocation(line: 39, column: 33, scope: !89)
!104 = !DILocation(line: 39, column: 9, scope: !89)
!105 = distinct !{!105, !91, !106, !70}
!106 = !DILocation(line: 40, column: 39, scope: !83)
!107 = !DILocation(line: 41, column: 18, scope: !108)
!108 = distinct !DILexicalBlock(scope: !84, file: !9, line: 41, column: 9)
!109 = !DILocation(line: 41, column: 20, scope: !108)
!110 = !DILocation(line: 41, column: 16, scope: !108)
!111 = !DILocation(line: 41, column: 14, scope: !108)
!112 = !DILocation(line: 41, column: 25, scope: !113)
!113 = distinct !DILexicalBlock(scope: !108, file: !9, line: 41, column: 9)
!114 = !DILocation(line: 41, column: 27, scope: !113)
!115 = !DILocation(line: 41, column: 9, scope: !108)
!116 = !DILocation(line: 42, column: 22, scope: !117)
!117 = distinct !DILexicalBlock(scope: !113, file: !9, line: 42, column: 13)
!118 = !DILocation(line: 42, column: 24, scope: !117)
!119 = !DILocation(line: 42, column: 20, scope: !117)
!120 = !DILocation(line: 42, column: 18, scope: !117)
!121 = !DILocation(line: 42, column: 29, scope: !122)
!122 = distinct !DILexicalBlock(scope: !117, file: !9, line: 42, column: 13)
!123 = !DILocation(line: 42, column: 31, scope: !122)
!124 = !DILocation(line: 42, column: 13, scope: !117)
!125 = !DILocation(line: 43, column: 29, scope: !122)
!126 = !DILocation(line: 43, column: 27, scope: !122)
!127 = !DILocation(line: 43, column: 32, scope: !122)
!128 = !DILocation(line: 43, column: 39, scope: !122)
!129 = !DILocation(line: 43, column: 37, scope: !122)
!130 = !DILocation(line: 43, column: 42, scope: !122)
!131 = !DILocation(line: 43, column: 49, scope: !122)
!132 = !DILocation(line: 43, column: 47, scope: !122)
!133 = !DILocation(line: 43, column: 52, scope: !122)
!134 = !DILocation(line: 43, column: 35, scope: !122)
!135 = !DILocation(line: 43, column: 19, scope: !122)
!136 = !DILocation(line: 43, column: 17, scope: !122)
!137 = !DILocation(line: 43, column: 22, scope: !122)
!138 = !DILocation(line: 43, column: 25, scope: !122)
!139 = !DILocation(line: 42, column: 37, scope: !122)
!140 = !DILocation(line: 42, column: 13, scope: !122)
!141 = distinct !{!141, !124, !142, !70}
!142 = !DILocation(line: 43, column: 53, scope: !117)
!143 = !DILocation(line: 41, column: 33, scope: !113)
!144 = !DILocation(line: 41, column: 9, scope: !113)
!145 = distinct !{!145, !115, !146, !70}
!146 = !DILocation(line: 43, column: 53, scope: !108)
!147 = !DILocation(line: 44, column: 5, scope: !84)
!148 = !DILocation(line: 38, column: 29, scope: !79)
!149 = !DILocation(line: 38, column: 5, scope: !79)
!150 = distinct !{!150, !81, !151, !70}
!151 = !DILocation(line: 44, column: 5, scope: !76)
!152 = !DILocalVariable(name: "sum", scope: !25, file: !9, line: 47, type: !5)
!153 = !DILocation(line: 47, column: 12, scope: !25)
!154 = !DILocation(line: 48, column: 12, scope: !155)
!155 = distinct !DILexicalBlock(scope: !25, file: !9, line: 48, column: 5)
!156 = !DILocation(line: 48, column: 10, scope: !155)
!157 = !DILocation(line: 48, column: 17, scope: !158)
!158 = distinct !DILexicalBlock(scope: !155, file: !9, line: 48, column: 5)
!159 = !DILocation(line: 48, column: 19, scope: !158)
!160 = !DILocation(line: 48, column: 5, scope: !155)
!161 = !DILocation(line: 49, column: 16, scope: !162)
!162 = distinct !DILexicalBlock(scope: !158, file: !9, line: 49, column: 9)
!163 = !DILocation(line: 49, column: 14, scope: !162)
!164 = !DILocation(line: 49, column: 21, scope: !165)
!165 = distinct !DILexicalBlock(scope: !162, file: !9, line: 49, column: 9)
!166 = !DILocation(line: 49, column: 23, scope: !165)
!167 = !DILocation(line: 49, column: 9, scope: !162)
!168 = !DILocation(line: 50, column: 22, scope: !165)
!169 = !DILocation(line: 50, column: 20, scope: !165)
!170 = !DILocation(line: 50, column: 25, scope: !165)
!171 = !DILocation(line: 50, column: 17, scope: !165)
!172 = !DILocation(line: 50, column: 13, scope: !165)
!173 = !DILocation(line: 49, column: 29, scope: !165)
!174 = !DILocation(line: 49, column: 9, scope: !165)
!175 = distinct !{!175, !167, !176, !70}
!176 = !DILocation(line: 50, column: 26, scope: !162)
!177 = !DILocation(line: 48, column: 25, scope: !158)
!178 = !DILocation(line: 48, column: 5, scope: !158)
!179 = distinct !{!179, !160, !180, !70}
!180 = !DILocation(line: 50, column: 26, scope: !155)
!181 = !DILocation(line: 51, column: 35, scope: !25)
!182 = !DILocation(line: 51, column: 5, scope: !25)
!183 = !DILocation(line: 52, column: 5, scope: !25)
