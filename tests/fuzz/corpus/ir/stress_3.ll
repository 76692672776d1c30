; ModuleID = '/tmp/autogen.bc'
source_filename = "/tmp/autogen.bc"

define void @autogen_SD3(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %A4 = alloca i16, align 2
  %A3 = alloca i1, align 1
  %A2 = alloca float, align 4
  %A1 = alloca i32, align 4
  %A = alloca i64, align 8
  %L = load <2 x i16>, ptr %0, align 4
  store i64 64481, ptr %A, align 4
  %E = extractelement <4 x i16> zeroinitializer, i32 39241
  %Shuff = shufflevector <4 x i64> zeroinitializer, <4 x i64> zeroinitializer, <4 x i32> <i32 3, i32 5, i32 7, i32 1>
  %I = insertelement <4 x i64> zeroinitializer, i64 64481, i32 39241
  %B = frem float 0x3878262C00000000, 0x422D262100000000
  %FC = sitofp <4 x i64> %Shuff to <4 x float>
  %Sl = select i1 true, i32 %3, i32 %3
  %Cmp = fcmp oge double 0x199F14BEF29D233C, 0x2F5730769455CAF4
  br label %CF

CF:                                               ; preds = %CF, %CF27, %CF26, %BB
  %L5 = load <4 x float>, ptr %0, align 16
  store double 0x2F5730769455CAF4, ptr %0, align 8
  %E6 = extractelement <16 x i32> zeroinitializer, i32 39241
  %Shuff7 = shufflevector <16 x i32> zeroinitializer, <16 x i32> zeroinitializer, <16 x i32> <i32 poison, i32 poison, i32 21, i32 23, i32 25, i32 27, i32 29, i32 31, i32 1, i32 poison, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
  %I8 = insertelement <4 x i64> zeroinitializer, i64 106597, i32 138421
  %B9 = udiv i64 106597, %4
  %FC10 = sitofp <2 x i8> zeroinitializer to <2 x float>
  %Sl11 = select i1 true, i32 %E6, i32 138421
  %Cmp12 = fcmp uno float %B, %B
  br i1 %Cmp12, label %CF, label %CF27

CF27:                                             ; preds = %CF
  %L13 = load <1 x i32>, ptr %0, align 4
  store i16 0, ptr %0, align 2
  %E14 = extractelement <2 x i1> zeroinitializer, i32 39241
  br i1 %E14, label %CF, label %CF26

CF26:                                             ; preds = %CF27
  %Shuff15 = shufflevector <8 x i64> zeroinitializer, <8 x i64> zeroinitializer, <8 x i32> <i32 15, i32 1, i32 3, i32 5, i32 7, i32 poison, i32 poison, i32 13>
  %I16 = insertelement <2 x i1> zeroinitializer, i1 %Cmp12, i32 39241
  %PC = bitcast ptr %A1 to ptr
  %Sl17 = select i1 %Cmp, ptr %A4, ptr %PC
  %Cmp18 = icmp ugt i1 true, true
  br i1 %Cmp18, label %CF, label %CF25

CF25:                                             ; preds = %CF26
  %L19 = load <2 x i32>, ptr %PC, align 8
  store double 0x2F5730769455CAF4, ptr %A3, align 8
  %E20 = extractelement <8 x i8> zeroinitializer, i32 39241
  %Shuff21 = shufflevector <4 x i16> zeroinitializer, <4 x i16> zeroinitializer, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
  %I22 = insertelement <1 x i32> %L13, i32 39241, i32 39241
  %Tr = trunc i32 39241 to i16
  %Sl23 = select <2 x i1> zeroinitializer, <2 x float> %FC10, <2 x float> %FC10
  %Cmp24 = icmp ne <1 x i32> %I22, %L13
  store <16 x i8> <i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1, i8 0, i8 -1>, ptr %0, align 16
  store <4 x float> %FC, ptr %PC, align 16
  store <2 x i64> <i64 0, i64 -1>, ptr %Sl17, align 16
  store <16 x i32> zeroinitializer, ptr %PC, align 64
  store <4 x double> <double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF, double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF>, ptr %0, align 32
  ret void
}
