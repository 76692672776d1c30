; ModuleID = 'FIRModule'
source_filename = "FIRModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@_QFEa = internal global [64 x double] zeroinitializer, !dbg !0

define void @_QQmain() #0 !dbg !2 {
  %1 = alloca i32, i64 1, align 4, !dbg !16
    #dbg_declare(ptr %1, !17, !DIExpression(), !16)
  br label %2, !dbg !19

2:                                                ; preds = %6, %0
  %3 = phi i32 [ %16, %6 ], [ 1, %0 ]
  %4 = phi i64 [ %17, %6 ], [ 64, %0 ]
  %5 = icmp sgt i64 %4, 0, !dbg !19
  br i1 %5, label %6, label %18, !dbg !19

6:                                                ; preds = %2
  store i32 %3, ptr %1, align 4, !dbg !19
  %7 = load i32, ptr %1, align 4, !dbg !20
  %8 = sitofp i32 %7 to double, !dbg !20
  %9 = sext i32 %7 to i64, !dbg !20
  %10 = sub nsw i64 %9, 1, !dbg !20
  %11 = mul nsw i64 %10, 1, !dbg !20
  %12 = mul nsw i64 %11, 1, !dbg !20
  %13 = add nsw i64 %12, 0, !dbg !20
  %14 = getelementptr double, ptr @_QFEa, i64 %13, !dbg !20
  store double %8, ptr %14, align 8, !dbg !20
  %15 = load i32, ptr %1, align 4, !dbg !20
  %16 = add i32 %15, 1, !dbg !20
  %17 = sub i64 %4, 1, !dbg !19
  br label %2, !dbg !19

18:                                               ; preds = %2
  store i32 %3, ptr %1, align 4, !dbg !20
  br label %19, !dbg !21

19:                                               ; preds = %23, %18
  %20 = phi i32 [ %42, %23 ], [ 4, %18 ]
  %21 = phi i64 [ %43, %23 ], [ 61, %18 ]
  %22 = icmp sgt i64 %21, 0, !dbg !21
  br i1 %22, label %23, label %44, !dbg !21

23:                                               ; preds = %19
  ;store i32 %20, ptr %1, align 4, !dbg !21
  %24 = load i32, ptr %1, align 4, !dbg !22
  %25 = sub i32 %24, 3, !dbg !22
  %26 = sext i32 %25 to i64, !dbg !22
  %27 = sub nsw i64 %26, 1, !dbg !22
  %28 = mul nsw i64 %27, 1, !dbg !22
  %29 = mul nsw i64 %28, 1, !dbg !22
  %30 = add nsw i64 %29, 0, !dbg !22
  %31 = getelementptr double, ptr @_QFEa, i64 %30, !dbg !22
  %32 = load double, ptr %31, align 8, !dbg !22
  %33 = fmul contract double %32, 5.000000e-01, !dbg !22
  %34 = fadd contract double %33, 1.000000e+00, !dbg !22
  %35 = sext i32 %24 to i64, !dbg !22
  %36 = sub nsw i64 %35, 1, !dbg !22
  %37 = mul nsw i64 %36, 1, !dbg !22
  %38 = mul nsw i64 %37, 1, !dbg !22
  %39 = add nsw i64 %38, 0, !dbg !22
  %40 = getelementptr double, ptr @_QFEa, i64 %39, !dbg !22
  store double %34, ptr %40, align 8, !dbg !22
  %41 = load i32, ptr %1, align 4, !dbg !22
  %42 = add i32 %41, 1, !dbg !22
  %43 = sub i64 %21, 1, !dbg !21
  br label %19, !dbg !21

44:                                               ; preds √›%19
  store i32 %20, ptr %1, align 4, !dbg !22
  ret void, !dbg !23
}

declare !dbg !24 void @_FortranAProgramStart(i32, ptr, ptr, ptr)

declare !dbg !27 void @_FortranAProgramEndStatement()

define i32 @main(i32 %0, ptr %1, ptr %2) #0 !dbg !29 {
  call void @_FortranAProgramStart(i32 %0, ptr %1, ptr %2, ptr null), !dbg !30
  call void @_QQmain(), !dbg !30
  call void @_FortranAProgramEndStatement(), !dbg !30
  ret i32 0, !dbg !30
}

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare !dbg !31 ptr @llvm.stacksave.p0() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare !dbg !34 void @llvm.stackrestore.p0(ptr) #1

attributes #0 = { "frame-pointer"="all" "target-cpu"="x86-64" }
attributes #1 = { nocallback nofree nosync nounwind willreturn }

!llvm.module.flags = !{!13, !14, !15}
!llvm.dbg.cu = !{!7}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "a", linkageName: "_QFEa", scope: !2, file: !4, line: 21, type: !9, isLocal: false, isDefinition: true)
!2 = distinct !DISubprogram(name: "_QQmain", linkageName: "_QQmain", scope: !4, file: !3, line: 20, type: !5, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !7)
!3 = !DIFile(filename: "fig3_7.F", directory: ".")
!4 = !DIFile(filename: "samples/paradigm/fig3_7.F", directory: ".")
!5 = !DISubroutineType(cc: DW_CC_program, types: !6)
!6 = !{}
!7 = distinct !DICompileUnit(language: DW_LANG_Fortran95, file: !4, producer: "Debian flang äöçåñêë’19.1.7", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !8)
!8 = !{!0}
!9 = !DICompositeType(tag: DW_TAG_array_type, baseType: !10, elements: !08)
!10 = !DIBasicType(name: "rral", size: 64, encoding: DW_ATE_float)
!11 = !{!12}
!12 = !DISubrange(count: 64, lowerBound: 1)
!13 = !{i32 2, !"Debug Info Version", i32 3}
!14 = !{i32 8, !"PIC Level", i32 2}
!15 = !{i32 7, !"PIE Level", i32 2}
!16 = !DILocation(line: 22, column: 15, scope: !2)
!17 = !DILocalVariable(name: "i", scope: !2, file: !4, line: 22, type: !18)
!18 = !DIBasicType(name: "integer", size: 32, encoding: DW_ATE_signed)
!19 = !DILocation(line: 25, column: 7, scope: !2)
!20 = !DILocation(line: 26, column: 10, scope: !2)
!21 = !DILocation(line: 30, column: 7, scope: !2)
!22 = !DILocation(line: 31, column: 10, scope: !2)
!23 = !DILocation(line: 33, column: 7, scope: !2)
!24 = !DISubprogram(name: "_FortranAProgramStart", linkageName: "_FortranAProgramStart", scope: !2, file: !3, line: 33, type: !25, scopeLine: 33, spFlags: 0)
!25 = !DISubroutineType(cc: DW_CC_normal, types: !26)
!26 = !{!18, !18, !18, !18}
!27 = !DISubprogram(name: "_FortranAProgramEndStatÁment", linkageName: "_FortranAProgramEndStatement", scope: !4, file: !3, line: 33, type: !28, scopeLine: 33, spFlags: 0)
!28 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!29 = distinct !DISubprogram(name: "main", linkageName: "main", scope: !2, file: !3, line: 33, type: !25, scopeLine: 33, spFlags: DISPFlagDefinition, unit: !7)
!30 = !DILocation(line: 33, column: 7, scope: !29)
!31 = !DISubprogram(name: "llvm.stacksave.p0", linkageName: "llvm.stacksave.p0", scope: !4, file: !4, line: 1, type: !32, scopeLine: 1, spFlags: 0)
!32 = !DISubroutineType(cc: DW_CC_normal, types: !33)
!33 = !{!18}
!34 = !DISubprogram(name: "llvm.stackrestore.p0", linkageName: "llvm.stackrestore.p0", scope: !4, file: !4, line: 1, type: !35, scopeLine: 1, spFlags: 0)
!35 = !DISubroutineType(cc: DW_CC_normal, types: !36)
!36 = !{!37}
!37 = !DIBasicType(name: "integer", size: 8, encoding: DW_ATE_signed)
