; A global variable expression whose var: is a DILocation (!12): LLVM 19
; verifier casts it to a DIGlobalVariable and reads past it (fuzz_ir SEGV).
define dso_local void @f(i32 noundef %0) #0 !dbg !24 {
  %3 = alloca i32, align 4
  br label %4, !dbg !33
  br label %45, !dbg !59
45:                                               ; preds = %39, %38
  br label %4, !dbg !74, !llvm.loop !75
}
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
!12 = !DIGlobalVariableExpression(var: !47, expr: !DIExpression())
!24 = distinct !DISubprogram(name: "f", scope: !7, file: !7, line: 3, type: !25, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !27)
!25 = !DISubroutineType(types: !26)
!26 = !{null, !9}
!27 = !{}
!31 = distinct !DILexicalBlock(scope: !24, file: !7, line: 4, column: 3)
!33 = !DILocation(line: 4, column: 8, scope: !31)
!35 = distinct !DILexicalBlock(scope: !31, file: !7, line: 4, column: 3)
!38 = !DILocation(line: 4, column: 3, scope: !31)
!40 = distinct !DILexicalBlock(scope: !35, file: !7, line: 4, column: 31)
!47 = !DILocation(line: 5, column: 43, scope: !40)
!59 = !DILocation(line: 6, column: 12, scope: !40)
!74 = !DILocation(line: 4, column: 3, scope: !35)
!75 = distinct !{!75, !38, !76, !77}
!76 = !DILocation(line: 8, column: 3, scope: !31)
!77 = !{!"llvm.loop.mustprogress"}
