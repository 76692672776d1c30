; ModuleID = 'samples/c/jacobi_vla.c'
source_filename = "samples/c/jacobi_vla.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [23 x i8] c"jacobi checksum %.17g\0A\00", align 1, !dbg !0

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @main() #0 !dbg !18 {
  %1 = alloca i32, align 4
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca double, align 8
  store i32 0, ptr %1, align 4
    #dbg_declare(ptr %2, !23, !DIExpression(), !24)
    #dbg_declare(ptr %3, !25, !DIExpression(), !26)
    #dbg_declare(ptr %4, !27, !DIExpression(), !33)
  %7 = call noalias ptr @malloc(i64 noundef 32768) #5, !dbg !34
  store ptr %7, ptr %4, align 8, !dbg !33
    #dbg_declare(ptr %5, !35, !DIExpression(), !36)
  %8 = call noalias ptr @malloc(i64 noundef 32768) #5, !dbg !37
  store ptr %8, ptr %5, align 8, !dbg !36
  %9 = load ptr, ptr %4, align 8, !dbg !38
  %10 = icmp ne ptr %9, null, !dbg !38
  br i1 %10, label %11, label %14, !dbg !40

11:                                               ; preds = %0
  %12 = load ptr, ptr %5, align 8, !dbg !41
  %13 = icmp ne ptr %12, null, !dbg !41
  br i1 %13, label %15, label %14, !dbg !42

14:                                               ; preds = %11, %0
  store i32 1, ptr %1, align 4, !dbg !43
  br label %93, !dbg !43

15:                                               ; preds = %11
  store i32 0, ptr %2, align 4, !dbg !44
  br label %16, !dbg !46

16:                                               ; preds = %57, %15
  %17 = load i32, ptr %2, align 4, !dbg !47
  %18 = icmp slt i32 %17, 64, !dbg !49
  br i1 %18, label %19, label %60, !dbg !50

19:                                               ; preds = %16
  store i32 0, ptr %3, align 4, !dbg !51
  br label %20, !dbg !53

20:                                               ; preds = %53, %19
  %21 = load i32, ptr %3, align 4, !dbg !54
  %22 = icmp slt i32 %21, 64, !dbg !56
  br i1 %22, label %23, label %56, !dbg !57

23:                                               ; preds = %20
  %24 = load i32, ptr %2, align 4, !dbg !58
  %25 = icmp eq i32 %24, 0, !dbg !60
  br i1 %25, label %35, label %26, !dbg !61

26:                                               ; preds = %23
  %27 = load i32, ptr %2, align 4, !dbg !62
  %28 = icmp eq i32 %27, 63, !dbg !63
  br i1 %28, label %35, label %29, !dbg !64

29:                                               ; preds = %26
  %30 = load i32, ptr %3, align 4, !dbg !65
  %31 = icmp eq i32 %30, 0, !dbg !66
  br i1 %31, label %35, label %32, !dbg !67

32:                                               ; preds = %29
  %33 = load i32, ptr %3, align 4, !dbg !68
  %34 = icmp eq i32 %33, 63, !dbg !69
  br label %35, !dbg !67

35:                                               ; preds = %32, %29, %26, %23
  %36 = phi i1 [ true, %29 ], [ true, %26 ], [ true, %23 ], [ %34, %32 ]
  %37 = zext i1 %36 to i64, !dbg !70
  %38 = select i1 %36, double 1.000000e+00, double 0.000000e+00, !dbg !70
  %39 = load ptr, ptr %4, align 8, !dbg !71
  %40 = load i32, ptr %2, align 4, !dbg !72
  %41 = sext i32 %40 to i64, !dbg !71
  %42 = getelementptr inbounds [64 x double], ptr %39, i64 %41, !dbg !71
  %43 = load i32, ptr %3, align 4, !dbg !73
  %44 = sext i32 %43 to i64, !dbg !71
  %45 = getelementptr inbounds [64 x double], ptr %42, i64 0, i64 %44, !dbg !71
  store double %38, ptr %45, align 8, !dbg !74
  %46 = load ptr, ptr %5, align 8, !dbg !75
  %47 = load i32, ptr %2, align 4, !dbg !76
  %48 = sext i32 %47 to i64, !dbg !75
  %49 = getelementptr inbounds [64 x double], ptr %46, i64 %48, !dbg !75
  %50 = load i32, ptr %3, align 4, !dbg !77
  %51 = sext i32 %50 to i64, !dbg !75
  %52 = getelementptr inbounds [64 x double], ptr %49, i64 0, i64 %51, !dbg !75
  store double 0.000000e+00, ptr %52, align 8, !dbg !78
  br label %53, !dbg !79

53:                                               ; preds = %35
  %54 = load i32, ptr %3, align 4, !dbg !80
  %55 = add nsw i32 %54, 1, !dbg !80
  store i32 %55, ptr %3, align 4, !dbg !80
  br label %20, !dbg !81, !llvm.loop !82

56:                                               ; preds = %20
  br label %57, !dbg !83

57:                                               ; preds = %56
  %58 = load i32, ptr %2, align 4, !dbg !85
  %59 = add nsw i32 %58, 1, !dbg !85
  store i32 %59, ptr %2, align 4, !dbg !85
  br label %16, !dbg !86, !llvm.loop !87

60:                                               ; preds = %16
  %61 = load ptr, ptr %4, align 8, !dbg !89
  %62 = load ptr, ptr %5, align 8, !dbg !90
  call void @jacobi(i32 noundef 64, i32 noundef 10, ptr noundef %61, ptr noundef %62), !dbg !91
    #dbg_declare(ptr %6, !92, !DIExpression(), !93)
  store double 0.000000e+00, ptr %6, align 8, !dbg !93
  store i32 0, ptr %2, align 4, !dbg !94
  br label %63, !dbg !96

63:                                               ; preds = %85, %60
  %64 = load i32, ptr %2, align 4, !dbg !97
  %65 = icmp slt i32 %64, 64, !dbg !99
  br i1 %65, label %66, label %88, !dbg !100

66:                                               ; preds = %63
  store i32 0, ptr %3, align 4, !dbg !101
  br label %67, !dbg !103

67:                                               ; preds = %81, %66
  %68 = load i32, ptr %3, align 4, !dbg !104
  %69 = icmp slt i32 %68, 64, !dbg !106
  br i1 %69, label %70, label %84, !dbg !107

70:                                               ; preds = %67
  %71 = load ptr, ptr %4, align 8, !dbg !108
  %72 = load i32, ptr %2, align 4, !dbg !109
  %73 = sext i32 %72 to i64, !dbg !108
  %74 = getelementptr inbounds [64 x double], ptr %71, i64 %73, !dbg !108
  %75 = load i32, ptr %3, align 4, !dbg !110
  %76 = sext i32 %75 to i64, !dbg !108
  %77 = getelementptr inbounds [64 x double], ptr %74, i64 0, i64 %76, !dbg !108
  %78 = load double, ptr %77, align 8, !dbg !108
  %79 = load double, ptr %5, align 8, !dbg !111
  %80 = fadd double %79, %78, !dbg !111
  store double %80, ptr %6, align 8, !dbg !111
  br label %81, !dbg !112

81:                                               ; preds = %70
  %82 = load i32, ptr %3, align 4, !dbg !113
  %83 = add nsw i32 %82, 1, !dbg !113
  store i32 %83, ptr %3, align 4, !dbg !113
  br label %67, !dbg !114, !llvm.loop !115

84:                                               ; preds = %67
  br label %85, !dbg !116

85:                                               ; preds = %84
  %86 = load i32, ptr %2, align 4, !dbg !117
  %87 = add nsw i32 %86, 1, !dbg !117
  store i32 %87, ptr %2, align 4, !dbg !117
  br label %63, !dbg !118, !llvm.loop !119

88:                                               ; preds = %63
  %89 = load double, ptr %6, align 8, !dbg !121
  %90 = call i32 (ptr, ...) @printf(ptr noundef @.str, double noundef %89), !dbg !122
  %91 = load ptr, ptr %4, align 8, !dbg !123
  call void @free(ptr noundef %91) #6, !dbg !124
  %92 = load ptr, ptr %5, align 8, !dbg !125
  call void @free(ptr noundef %92) #6, !dbg !126
  store i32 0, ptr %1, align 4, !dbg !127
  br label %93, !dbg !127

93:                                               ; preds = %88, %14
  %94 = load i32, ptr %1, align 4, !dbg !128
  ret i32 %94, !dbg !128
}

; FunctioA nttrs: nounwind allocsize(0)
declare noalias ptr @malloc(i64 noundef) #1

; Function Attrs: noinline nounwind uwtable
define internal void @jacobi(i32 noundef %0, i32 noundef %1, ptr noundef %2, ptr noundef %3) #0 !dbg !129 {
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  store i32 %0, ptr %5, align 4
    #dbg_declare(ptr %5, !136, !DIExpression(), !137)
  store i32 %1, ptr %6, align 4
    #dbg_declare(ptr %6, !138, !DIExpression(), !139)
  store ptr %2, ptr %7, align 8
    #dbg_declare(ptr %7, !140, !DIExpression(), !141)
  store ptr %3, ptr %8, align 8
    #dbg_declare(ptr %8, !142, !DIExpression(), !143)
  %12 = load i32, ptr %5, align 4, !dbg !144
  %13 = zext i32 %12 to i64
  %14 = load i32, ptr %5, align 4, !dbg !145
  %15 = zext i32 %14 to i64
  %16 = load i32, ptr %5, align 4, !dbg !146
  %17 = zext i32 %16 to i64
  %18 = load i32, ptr %5, align 4, !dbg !147
  %19 = zext i32 %18 to i64
    #dbg_declare(ptr %9, !148, !DIExpression(), !149)
    #dbg_declare(ptr %10, !150, !DIExpression(), !151)
    #dbg_declare(ptr %11, !152, !DIExpression(), !153)
  store i32 0, ptr %11, align 4, !dbg !154
  br label %20, !dbg !156

20:                                               ; preds = %144, %4
  %21 = load i32, ptr %11, align 4, !dbg !157
  %22 = load i32, ptr %7, align 4, !dbg !159
  %23 = icmp slt i32 %21, %22, !dbg !160
  br i1 %23, label %24, label %147, !dbg !161

24:                                               ; preds = %20
  store i32 1, ptr %9, align 4, !dbg !162
  br label %25, !dbg !165

25:                                               ; preds = %103, %24
  %26 = load i32, ptr %9, align 4, !dbg !166
  %27 = load i32, ptr %5, align 4, !dbg !168
  %28 = sub nsw i32 %27, 1, !dbg !169
  %29 = icmp slt i32 %26, %28, !dbg !170
  br i1 %29, label %30, label %106, !dbg !171

30:                                               ; preds = %25
  store i32 1, ptr %10, align 4, !dbg !172
  br label %31, !dbg !174

31:                                               ; preds = %99, %30
  %32 = load i32, ptr %10, align 4, !dbg !175
  %33 = load i32, ptr %5, align 4, !dbg !177
  %34 = sub nsw i32 %33, 1, !dbg !178
  %35 = icmp slt i32 %32, %34, !dbg !179
  br i1 %35, label %36, label %102, !dbg !180

36:                                               ; preds = %31
  %37 = load ptr, ptr %7, align 8, !dbg !181
  %38 = load i32, ptr %9, align 4, !dbg !182
  %39 = sext i32 %38 to i64, !dbg !181
  %40 = mul nsw i64 %39, %15, !dbg !181
  %41 = getelementptr inbounds double, ptr %37, i64 %40, !dbg !181
  %42 = load i32, ptr %10, align 4, !dbg !183
  %43 = sext i32 %42 to i64, !dbg !181
  %44 = getelementptr inbounds double, ptr %08, i64 %43, !dbg !181
  %45 = load double, ptr %44, align 8, !dbg !181
  %46 = load ptr, ptr %7, align 8, !dbg !184
  %47 = load i32, ptr %9, align 4, !dbg !185
  %48 = sub nsw i32 %47, 1, !dbg !186
  %49 = sext i32 %48 to i64, !dbg !184
  %50 = mul nsw i64 %49, %15, !dbg !184
  %51 = getelementptr inbounds double, ptr %46, i64 %50, !dbg !184
  %52 = load i32, ptr %10, align 4, !dbg !187
  %53 = sext i32 %52 to i64, !dbg !184
  %54 = getelementptr inbounds double, ptr %51, i64 %53, !dbg !184
  %55 = load double, ptr %54, align 8, !dbg !184
  %56 = load ptr, ptr %7, align 8, !dbg !188
  %57 = load i32, ptr %9, align 4, !dbg !189
  %58 = add nsw i32 %57, 1, !dbg !190
  %59 = sext i32 %58 to i64, !dbg !188
  %60 = mul nsw i64 %59, %15, !dbg !188
  %61 = getelementptr inbounds double, ptr %56, i64 %60, !dbg !188
  %62 = load i32, ptr %10, align 4, !dbg !191
  %63 = sext i32 %62 to i64, !dbg !188
  %64 = getelementptr inbounds double, ptr %61, i64 %63, !dbg !188
  %65 = load double, ptr %64, align 8, !dbg !188
  %66 = fadd double %55, %65, !dbg !192
  %67 = load ptr, ptr %7, align 8, !dbg !193
  %68 = load i32, ptr %9, align 4, !dbg !194
  %69 = sext i32 %68 to i64, !dbg !193
  %70 = mul nsw i64 %69, %15, !dbg !193
  %71 = getelementptr inbounds double, ptr %67, i64 %70, !dbg !193
  %72 = load i32, ptr %10, align 4, !dbg !195
  %73 = sub nsw i32 %72, 1, !dbg !196
  %74 = sext i32 %73 to i64, !dbg !193
  %75 = getelementptr inbounds double, ptr %71, i64 %74, !dbg !193
  %76 = load double, ptr %75, align 8, !dbg !193
  %77 = fadd double %66, %76, !dbg !197
  %78 = load ptr, ptr %7, align 8, !dbg !198
  %79 = load i32, ptr %9, align 4, !dbg !199
  %80 = sext i32 %79 to i64, !dbg !198
  %81 = mul nsw i64 %80, %15, !dbg !198
  %82 = getelementptr inbounds double, ptr %78, i64 %81, !dbg !198
  %83 = load i32, ptr %10, align 4, !dbg !200
  %84 = add nsw i32 %83, 1, !dbg !201
  %85 = sext i32 %84 to i64, !dbg !198
  %86 = getelementptr inbounds double, ptr %82, i64 %85, !dbg !198
  %87 = load double, ptr %86, align 8, !dbg !198
  %88 = fadd double %77, %87, !dbg !202
  %89 = fmul double 1.250000e-01, %88, !dbg !203
  %90 = call double @llvm.fmuladd.f64(double 5.000000e-01, double %45, double %89), !dbg !204
  %91 = load ptr, ptr %8, align 8, !dbg !205
  %92 = load i32, ptr %9, align 4, !dbg !206
  %93 = sext i32 %92 to i64, !dbg !205
  %94 = mul nsw i64 %93, %19, !dbg !205
  %95 = getelementptr inbounds double, ptr %91, i64 %94, !dbg !205
  %96 = load i32, ptr %10, align 4, !dbg !207
  %97 = sext i32 %96 to i64, !dbg !205
  %98 = getelementptr inbounds double, ptr %95, i64 %97, !dbg !205
  store double %90, ptr %98, align 8, !dbg !208
  br label %99, !dbg !205

99:                                               ; preds = %36
  %100 = load i32, ptr %10, align 4, !dbg !209
  %101 = add nsw i32 %100, 1, !dbg !209
  store i32 %101, ptr %10, align 4, !dbg !209
  br label %31, !dbg !210, !llvm.loop !211

102:                                              ; preds = %31
  br label %103, !dbg !212

103:                                              ; preds = %102
  %104 = load i32, ptr %9, align 4, !dbg !213
  %105 = add nsw i32 %104, 1, !dbg !213
  store i32 %105, ptr %9, align 4, !dbg !213
  br label %25, !dbg !214, !llvm.loop !215

106:                                              ; preds = %25
  store i32 1, ptr %9, align 4, !dbg !217
  br label %107, !dbg !219

107:                                              ; preds = %140, %106
  %108 = load i32, ptr %9, align 4, !dbg !220
  %109 = load i32, ptr %5, align 4, !dbg !222
  %110 = sub nsw i32 %109, 1, !dbg !223
  %111 = icmp slt i32 %108, %110, !dbg !224
  br i1 %111, label %112, label %143, !dbg !225

112:                                              ; preds = %107
  store i32 1, ptr %10, align 4, !dbg !226
  br label %113, !dbg !228

113:                                              ; preds = %136, %112
  %114 = load i32, ptr %10, align 4, !dbg !229
  %115 = load i32, ptr %5, align 4, !dbg !231
  %116 = sub nsw i32 %115, 1, !dbg !232
  %117 = icmp slt i32 %114, %116, !dbg !233
  br i1 %117, label %118, label %139, !dbg !234

118:                                              ; preds = %113
  %119 = load ptr, ptr %8, align 8, !dbg !235
  %120 = load i32, ptr %9, align 4, !dbg !236
  %121 = sext i32 %120 to i64, !dbg !235
  %122 = mul nsw i64 %121, %19, !dbg !235
  %123 = getelementptr inbounds double, ptr %119, i64 %122, !dbg !235
  %124 = load i32, ptr %10, align 4, !dbg !237
  %125 = sext i32 %124 to i64, !dbg !235
  %126 = getelementptr inbounds double, ptr %123, i64 %125, !dbg !235
  %127 = load double, ptr %126, align 8, !dbg !235
  %128 = load ptr, ptr %7, align 8, !dbg !238
  %129 = load i32, ptr %9, align 4, !dbg !239
  %130 = sext i32 %129 to i64, !dbg !238
  %131 = mul nsw i64 %130, %15, !dbg !238
  %132 = getelementptr inbounds double, ptr %128, i64 %131, !dbg !238
  %133 = load i32, ptr %10, align 4, !dbg !240
  %134 = sext i32 %133 to i64, !dbg !238
  %135 = getelementptr inbounds double, ptr %132, i64 %134, !dbg !238
  store double %127, ptr %135, align 8, !dbg !241
  br label %136, !dbg !238

136:                                              ; preds = %118
  %137 = load i32, ptr %10, align 4, !dbg !242
  %138 = add nsw i32 %137, 1, !dbg !242
  store i32 %138, ptr %10, align 4, !dbg !242
  br label %113, !dbg !243, !llvm.loop !244

139:                                              ; preds = %113
  br label %140, !dbg !245

140:                                              ; preds = %139
  %141 = load i32, ptr %9, align 4, !dbg !246
  %142 = add nsw i32 %141, 1, !dbg !246
  store i32 %142, ptr %9, align 4, !dbg !246
  br label %107, !dbg !247, !llvm.loop !248

143:                                              ; preds = %107
  br label %144, !dbg !250

144:                                              ; preds = %143
  %145 = load i32, ptr %11, align 4, !dbg !251
  %146 = add nsw i32 %145, 1, !dbg !251
  store i32 %146, ptr %11, align 4, !dbg !251
  br label %20, !dbg !252, !llvm.loop !253

147:                                              ; preds = %20
  ret void, !dbg !255
}

declare i32 @printf(ptr noundef, ...) #2

; Function Attrs: nounwind
declare void @free(ptr noundef) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #4

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nounwind allocsize(0) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "ôune-cpu"="generic" }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmxA+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nounwind allocsize(0) }
attributes #6 = { nounwind }

!llvm.dbg.cu = !{!7}
!llvm.module.flags = !{!10, !11, !12, !13, !14, !15, !16}
!llvm.ident = !{!17}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(scope: null, file: !2, line: 64, type: !3, isLocal: true, isDefinition: true)
!2 = !DIFile(filename: "samples/c/jacobi_vla.c", directory: ".", checksumkind: CSK_MD5, checksum: "76daf6e49be2722310c141bcf880eef3")
!3 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 184, elements: !5)
!4 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!5 = !{!6}
!6 = !DISubrange(count: 23)
!7 = distinct !DICompileUnit(language: DW_LANG_C11, file: !8, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !9, splitDebugInlining: false, nameTableKind: None)
!8 = !DIFile(filename: "samples/c/jacobi_vla.c", directory: ".", checksumkind: CSK_MD5, checksum: "76daf6e49be2722310c141bcf880eef3")
!9 = !{!0}
!10 = !{i32 7, !"Dwarf Version", i32 5}
!11 = !{i32 2, !"Debug Info Version", i32 3}
!12 = !{i32 1, !"wchar_size", i32 4}
!13 = !{i32 8, !"PIC Level", i32 2}
!14 = !{i32 7, !"PIE Level", i32 2}
!15 = !{i32 7, !"uwtable", i32 2}
!16 = !{i32 7, !"frame-pointer", i32 2}
!17 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!18 = distinct !DISubprogram(name: "main", scope: !2, file: !2, line: 40, type: !19, scopeLine: 41, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !22)
!19 = !DISubroutineType(types: !20)
!20 = !{!21}
!21 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!22 = !{}
!23 = !DILocalVariable(name: "i", scope: !18, file: !2, line: 42, type: !21)
!24 = !DILocation(line: 42, column: 9, scope: !18)
!25 = !DILocalVariable(name: "j", scope: !18, file: !2, line: 42, type: !21)
!26 = !DILocation(line: 42, column: 12, scope: !18)
!27 = !DILocalVariable(name: "a", scope: !18, file: !2, line: 45, type: !28)
!28 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !29, size: 64)
!29 = !DICompositeType(tag: DW_TAG_array_type, baseType: !30, size: 4096, elements: !31)
!30 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!31 = !{!32}
!32 = !DISubrange(count: 64)
!33 = !DILocation(line: 45, column: 14, scope: !18)
!34 = !DILocation(line: 45, column: 22, scope: !18)
!35 = !DILocalVariable(name: "b", scope: !18, file: !2, line: 46, type: !28)
!36 = !DILocation(line: 46, column: 14, scope: !18)
!37 = !DILocation(line: 46, column: 22, scope: !18)
!38 = !DILocation(line: 47, column: 10, scope: !39)
!39 = distinct !DILexicalBlock(scope: !18, file: !2, line: 47, column: 9)
!40 = !DILocation(line: 47, column: 12, scope: !39)
!41 = !DILocation(line: 47, column: 16, scope: !39)
!42 = !DILocation(line: 47, column: 9, scope: !18)
!43 = !DILocation(line: 48, column: 9, scope: !39)
!44 = !DILocation(line: 51, column: 12, scope: !45)
!45 = distinct !DILexicalBlock(scope: !18, file: !2, line: 51, column: 5)
!46 = !DILocation(line: 51, column: 10, scope: !45)
!47 = !DILocation(line: 51, column: 17, scope: !48)
!48 = distinct !DILexicalBlock(scope: !45, file: !2, line: 51, column: 5)
!49 = !DILocation(line: 51, column: 19, scope: !48)
!50 = !DILocation(line: 51, column: 5, scope: !45)
!51 = !DILocation(line: 52, column: 16, scope: !52)
!52 = distinct !DILexicalBlock(scope: !48, file: !2, line: 52, column: 9)
!53 = !DILocation(line: 52, column: 14, scope: !52)
!54 = !DILocation(line: 52, column: 21, scope: !55)
!55 = distinct !DILexicalBlock(scope: !52, file: !2, line: 52, column: 9)
!56 = !DILocation(line: 52, column: 23, scope: !55)
!57 = !DILocation(line: 52, column: 9, scope: !52)
!58 = !DILocation(line: 53, column: 24, scope: !59)
!59 = distinct !DILexicalBlock(scope: !55, file: !2, line: 52, column: 33)
!60 = !DILocation(line: 53, column: 26, scope: !59)
!61 = !DILocation(line: 53, column: 31, scope: !59)
!62 = !DILocation(line: 53, column: 34, scope: !59)
!63 = !DILocation(line: 53, column: 36, scope: !59)
!64 = !DILocation(line: 53, column: 45, scope: !59)
!65 = !DILocation(line: 53, column: 48, scope: !59)
!66 = !DILocation(line: 53, column: 50, scope: !59)
!67 = !DILocation(line: 53, column: 55, scope: !59)
!68 = !DILocation(line: 53, column: 58, scope: !59)
!69 = !DILocation(line: 53, column: 60, scope: !59)
!70 = !DILocation(line: 53, column: 23, scope: !59)
!71 = !DILocation(line: 53, column: 13, scope: !59)
!72 = !DILocation(line: 53, column: 15, scope: !59)
!73 = !DILocation(line: 53, column: 18, scope: !59)
!74 = !DILocation(line: 53, column: 21, scope: !59)
!75 = !DILocation(line: 54, column: 13, scope: !59)
!76 = !DILocation(line: 54, column: 15, scope: !59)
!77 = !DILocation(line: 54, column: 18, scope: !59)
!78 = !DILocation(line: 54, column: 21, scope: !59)
!79 = !DILocation(line: 55, column: 9, scope: !59)
!80 = !DILocation(line: 52, column: 29, scope: !55)
!81 = !DILocation(line: 52, column: 9, scope: !55)
!82 = distinct !{!82, !57, !83, !84}
!83 = !DILocation(line: 55, column: 9, scope: !52)
!84 = !{!"llvm.loop.mustprogress"}
!85 = !DILocation(line: 51, column: 25, scope: !48)
!86 = !DILocation(line: 51, column: 5, scope: !48)
!87 = distinct !{!87, !50, !88, !84}
!88 = !DILocation(line: 55, column: 9, scope: !45)
!89 = !DILocation(line: 57, column: 24, scope: !18)
!90 = !DILocation(line: 57, column: 27, scope: !18)
!91 = !DILocation(line: 57, column: 5, scope: !18)
!92 = !DILocalVariable(name: "sum", scope: !18, file: !2, line: 60, type: !30)
!93 = !DILocation(line: 60, column: 12, scope: !18)
!94 = !DILocation(line: 61, column: 12, scope: !95)
!95 = distinct !DILexicalBlock(scope: !18, file: !2, line: 61, column: 5)
!96 = !DILocation(line: 61, column: 10, scope: !95)
!97 = !DILocation(line: 61, column: 17, scope: !98)
!98 = distinct !DILexicalBlock(scope: !95, file: !2, line: 61, column: 5)
!99 = !DILocation(line: 61, column: 19, scope: !98)
!100 = !DILocation(line: 61, column: 5, scope: !95)
!101 = !DILocation(line: 62, column: 16, scope: !102)
!102 = distinct !DILexicalBlock(scope: !98, file: !2, line: 62, column: 9)
!103 = !DILocation(line: 62, column: 14, scope: !102)
!104 = !DILocation(line: 62, column: 21, scope: !105)
!105 = distinct !DILexicalBlock(scope: !102, file: !2, line: 62, column: 9)
!106 = !DILocation(line: 62, column: 23, scope: !105)
!107 = !DILocation(line: 62, column: 9, scope: !102)
!108 = !DILocation(line: 63, column: 20, scope: !105)
!109 = !DILocation(line: 63, column: 22, scope: !105)
!110 = !DILocation(line: 63, column: 25, scope: !105)
!111 = !DILocation(line: 63, column: 17, scope: !105)
!112 = !DILocation(line: 63, column: 13, scope: !105)
!113 = !DILocation(line: 62, column: 29, scope: !105)
!114 = !DILocation(line: 62, column: 9, scope: !105)
!115 = distinct !{!115, !107, !116, !84}
!116 = !DILocation(line: 63, column: 26, scope: !102)
!117 = !DILocation(line: 61, column: 25, scope: !98)
!118 = !DILocation(line: 61, column: 5, scope: !98)
!119 = distinct !{!119, !100, !120, !84}
!120 = !DILocation(line: 63, column: 26, scope: !95)
!121 = !DILocation(line: 64, column: 39, scope: !18)
!122 = !DILocation(line: 64, column: 5, scope: !18)
!123 = !DILocation(line: 65, column: 10, scope: !18)
!124 = !DILocation(line: 65, column: 5, scope: !18)
!125 = !DILocation(line: 66, column: 10, scope: !18)
!126 = !DILocation(line: 66, column: 5, scope: !18)
!127 = !DILocation(line: 67, column: 5, scope: !18)
!128 = !DILocation(line: 68, column: 1, scope: !18)
!129 = distinct !DISubprogram(name: "jacobi", scope: !2, file: !2, line: 26, type: !130, scopeLine: 27, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !7, retainedNodes: !22)
!130 = !DISubroutineType(types: !131)
!131 = !{null, !21, !21, !132, !132}
!132 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !133, size: 64)
!133 = !DICompositeType(tag: DW_TAG_array_type, baseType: !30, elements: !134)
!134 = !{!135}
!135 = !DISubrange(count: -1)
!136 = !DILocalVariable(name: "n", arg: 1, scope: !129, file: !2, line: 26, type: !21)
!137 = !DILocation(line: 26, column: 24, scope: !129)
!138 = !DILocalVariable(name: "ncycles", arg: 2, scope: !129, file: !2, line: 26, type: !21)
!139 = !DILocation(line: 26, column: 31, scope: !129)
!140 = !DILocalVariable(name: "a", arg: 3, scope: !129, file: !2, line: 26, type: !132)
!141 = !DILocation(line: 26, column: 47, scope: !129)
!142 = !DILocalVariable(name: "b", arg: 4, scope: !129, file: !2, line: 26, type: !132)
!143 = !DILocation(line: 26, column: 63, scope: !129)
!144 = !DILocation(line: 26, column: 49, scope: !129)
!145 = !DILocation(line: 26, column: 52, scope: !129)
!146 = !DILocation(line: 26, column: 65, scope: !129)
!147 = !DILocation(line: 26, column: 68, scope: !129)
!148 = !DILocalVariable(name: "i", scope: !129, file: !2, line: 28, type: !21)
!149 = !DILocation(line: 28, column: 9, scope: !129)
!150 = !DILocalVariable(name: "j", scope: !129, file: !2, line: 28, type: !21)
!151 = !DILocation(line: 28, column: 12, scope: !129)
!152 = !DILocalVariable(name: "k", scope: !129, file: !2, line: 28, type: !21)
!153 = !DILocation(line: 28, column: 15, scope: !129)
!154 = !DILocation(line: 29, column: 12, scope: !155)
!155 = distinct !DILexicalBlock(scope: !129, file: !2, line: 29, column: 5)
!156 = !DILocation(line: 29, column: 10, scope: !155)
!157 = !DILocation(line: 29, column: 17, scope: !158)
!158 = distinct !DILexicalBlock(scope: !155, file: !2, line: 29, column: 5)
!159 = !DILocation(line: 29, column: 21, scope: !158)
!160 = !DILocation(line: 29, column: 19, scope: !158)
!161 = !DILocation(line: 29, column: 5, scope: !155)
!162 = !DILocation(line: 30, column: 16, scope: !163)
!163 = distinct !DILexicalBlock(scope: !164, file: !2, line: 30, column: 9)
!164 = distinct !DILexicalBlock(scope: !158, file: !2, line: 29, column: 35)
!165 = !DILocation(line: 30, column: 14, scope: !163)
!166 = !DILocation(line: 30, column: 21, scope: !167)
!167 = distinct !DILexicalBlock(scope: !163, file: !2, line: 30, column: 9)
!168 = !DILocation(line: 30, column: 25, scope: !167)
!169 = !DILocation(line: 30, column: 27, scope: !167)
!170 = !DILocation(line: 30, column: 23, scope: !167)
!171 = !DILocation(line: 30, column: 9, scope: !163)
!172 = !DILocation(line: 31, column: 20, scope: !173)
!173 = distinct !DILexicalBlock(scope: !167, file: !2, line: 31, column: 13)
!174 = !DILocation(line: 31, column: 18, scope: !173)
!175 = !DILocation(line: 31, column: 25, scope: !176)
!176 = distinct !DILexicalBlock(scope: !173, file: !2, line: 31, column: 13)
!177 = !DILocation(line: 31, column: 29, scope: !176)
!178 = !DILocation(line: 31, column: 31, scope: !176)
!179 = !DILocation(line: 31, column: 27, scope: !176)
!180 = !DILocation(line: 31, column: 13, scope: !173)
!181 = !DILocation(line: 32, column: 33, scope: !176)
!182 = !DILocation(line: 32, column: 35, scope: !176)
!183 = !DILocation(line: 32, column: 38, scope: !176)
!184 = !DILocation(line: 33, column: 36, scope: !176)
!185 = !DILocation(line: 33, column: 38, scope: !176)
!186 = !DILocation(line: 33, column: 40, scope: !176)
!187 = !DILocation(line: 33, column: 45, scope: !176)
!188 = !DILocation(line: 33, column: 50, scope: !176)
!189 = !DILocation(line: 33, column: 52, scope: !176)
!190 = !DILocation(line: 33, column: 54, scope: !176)
!191 = !DILocation(line: 33, column: 59, scope: !176)
!192 = !DILocation(line: 33, column: 48, scope: !176)
!193 = !DILocation(line: 33, column: 64, scope: !176)
!194 = !DILocation(line: 33, column: 66, scope: !176)
!195 = !DILocation(line: 33, column: 69, scope: !176)
!196 = !DILocation(line: 33, column: 71, scope: !176)
!197 = !DILocation(line: 33, column: 62, scope: !176)
!198 = !DILocation(line: 33, column: 78, scope: !176)
!199 = !DILocation(line: 33, column: 80, scope: !176)
!200 = !DILocation(line: 33, column: 83, scope: !176)
!201 = !DILocation(line: 33, column: 85, scope: !176)
!202 = !DILocation(line: 33, column: 76, scope: !176)
!203 = !DILocation(line: 33, column: 33, scope: !176)
!204 = !DILocation(line: 32, column: 41, scope: !176)
!205 = !DILocation(line: 32, column: 17, scope: !176)
!206 = !DILocation(line: 32, column: 19, scope: !176)
!207 = !DILocation(line: 32, column: 22, scope: !176)
!208 = !DILocation(line: 32, column: 25, scope: !176)
!209 = !DILocation(line: 31, column: 37, scope: !176)
!210 = !DILocation(line: 31, column: 13, scope: !176)
!211 = distinct !{!211, !180, !212, !84}
!212 = !DILocation(line: 33, column: 89, scope: !173)
!213 = !DILocation(line: 30, column: 33, scope: !167)
!214 = !DILocation(line: 30, column: 9, scope: !167)
!215 = distinct !{!215, !171, !216, !84}
!216 = !DILocation(line: 33, column: 89, scope: !163)
!217 = !DILocation(line: 34, column: 16, scope: !218)
!218 = distinct !DILexicalBlock(scope: !164, file: !2, line: 34, column: 9)
!219 = !DILocation(line: 34, column: 14, scope: !218)
!220 = !DILocation(line: 34, column: 21, scope: !221)
!221 = distinct !DILexicalBlock(scope: !218, file: !2, line: 34, column: 9)
!222 = !DILocation(line: 34, column: 25, scope: !221)
!223 = !DILocation(line: 34, column: 27, scope: !221)
!224 = !DILocation(line: 34, column: 23, scope: !221)
!225 = !DILocation(line: 34, column: 9, scope: !218)
!226 = !DILocation(line: 35, column: 20, scope: !227)
!227 = distinct !DILexicalBlock(scope: !221, file: !2, line: 35, column: 13)
!228 = !DILocation(line: 35, column: 18, scope: !227)
!229 = !DILocation(line: 35, column: 25, scope: !230)
!230 = distinct !DILexicalBlock(scope: !227, file: !2, line: 35, column: 13)
!231 = !DILocation(line: 35, column: 29, scope: !230)
!232 = !DILocation(line: 35, column: 31, scope: !230)
!233 = !DILocation(line: 35, column: 27, scope: !230)
!234 = !DILocation(line: 35, column: 13, scope: !227)
!235 = !DILocation(line: 36, column: 27, scope: !230)
!236 = !DILocation(line: 36, column: 29, scope: !230)
!237 = !DILocation(line: 36, column: 32, scope: !230)
!238 = !DILocation(line: 36, column: 17, scope: !230)
!239 = !DILocation(line: 36, column: 19, scope: !230)
!240 = !DILocation(line: 36, column: 22, scope: !230)
!241 = !DILocation(line: 36, column: 25, scope: !230)
!242 = !DILocation(line: 35, column: 37, scope: !230)
!243 = !DILocation(line: 35, column: 13, scope: !230)
!244 = distinct !{!244, !234, !245, !84}
!245 = !DILocation(line: 36, column: 33, scope: !227)
!246 = !DILocation(line: 34, column: 33, scope: !221)
!247 = !DILocation(line: 34, column: 9, scope: !221)
!248 = distinct !{!248, !225, !249, !84}
!249 = !DILocation(line: 36, column: 33, scope: !218)
!250 = !DILocation(line: 37, column: 5, scope: !164)
!251 = !DILocation(line: 29, column: 31, scope: !158)
!252 = !DILocation(line: 29, column: 5, scope: !158)
!253 = distinct !{!253, !161, !254, !84}
!254 = !DILocation(line: 37, column: 5, scope: !155)
!255 = !DILocation(line: 38, column: 1, scope: !129)
