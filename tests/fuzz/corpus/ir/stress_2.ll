; ModuleID = '/tmp/autogen.bc'
source_filename = "/tmp/autogen.bc"

define void @autogen_SD2(ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %A4 = alloca <2 x i64>, align 16
  %A3 = alloca <16 x float>, align 64
  %A2 = alloca <8 x i1>, align 1
  %A1 = alloca <8 x i64>, align 64
  %A = alloca <2 x i16>, align 4
  %L = load i1, ptr %0, align 1
  br label %CF28

CF28:                                             ; preds = %BB
  store <8 x double> <double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF, double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF, double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF, double 0.000000e+00, double 0xFFFFFFFFFFFFFFFF>, ptr %0, align 64
  %E = extractelement <16 x i16> zeroinitializer, i32 59159
  %Shuff = shufflevector <16 x i16> zeroinitializer, <16 x i16> zeroinitializer, <16 x i32> <i32 28, i32 30, i32 0, i32 poison, i32 4, i32 6, i32 8, i32 10, i32 poison, i32 14, i32 poison, i32 poison, i32 poison, i32 22, i32 24, i32 26>
  %I = insertelement <16 x i16> %Shuff, i16 -1, i32 59159
  %FC = uitofp i16 26755 to double
  %Sl = select i1 %L, i64 0, i64 %4
  %Cmp = icmp slt i16 %E, 0
  br label %CF27

CF27:                                             ; preds = %CF28
  %L5 = load i32, ptr %0, align 4
  store <16 x float> <float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000, float 0.000000e+00, float 0xFFFFFFFFE0000000>, ptr %0, align 64
  %E6 = extractelement <16 x i16> zeroinitializer, i32 91015
  %Shuff7 = shufflevector <4 x i8> zeroinitializer, <4 x i8> zeroinitializer, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
  %I8 = insertelement <8 x i32> zeroinitializer, i32 91015, i32 91015
  %B = udiv <2 x i64> zeroinitializer, zeroinitializer
  %Sl9 = select i1 %L, i16 -1, i16 -1
  %Cmp10 = icmp ne i16 0, %E6
  br label %CF24

CF24:                                             ; preds = %CF27
  %L11 = load i32, ptr %0, align 4
  store <16 x i64> <i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1, i64 0, i64 -1>, ptr %0, align 128
  %E12 = extractelement <4 x i64> zeroinitializer, i32 91015
  %Shuff13 = shufflevector <2 x i1> zeroinitializer, <2 x i1> zeroinitializer, <2 x i32> <i32 0, i32 2>
  %I14 = insertelement <2 x i32> zeroinitializer, i32 91015, i32 %3
  %B15 = and i64 -1, %Sl
  %Sl16 = select i1 true, double 0xCBC1F96029BFCCDE, double 0xDE4D6AECBA4B3C6A
  %L17 = load i1, ptr %0, align 1
  br label %CF

CF:                                               ; preds = %CF, %CF26, %CF24
  store <8 x i16> <i16 0, i16 -1, i16 0, i16 -1, i16 0, i16 -1, i16 0, i16 -1>, ptr %0, align 16
  %E18 = extractelement <2 x i32> zeroinitializer, i32 59159
  %Shuff19 = shufflevector <2 x i1> zeroinitializer, <2 x i1> zeroinitializer, <2 x i32> <i32 poison, i32 0>
  %I20 = insertelement <16 x i16> %Shuff, i16 %Sl9, i32 91015
  %B21 = fsub double 0xBA9DEB3CDE9B04BA, 0xDE4D6AECBA4B3C6A
  %Tr = trunc i16 0 to i8
  %Sl22 = select i1 true, i1 %L17, i1 true
  br i1 %Sl22, label %CF, label %CF26

CF26:                                             ; preds = %CF
  %Cmp23 = fcmp ord double 0xBA9DEB3CDE9B04BA, 0xE8DEB2C8A8B5CAA
  br i1 %Cmp23, label %CF, label %CF25

CF25:                                             ; preds = %CF26
  store i1 %Cmp, ptr %0, align 1
  store i32 %3, ptr %0, align 4
  store double %Sl16, ptr %0, align 8
  store double 0xDE4D6AECBA4B3C6A, ptr %0, align 8
  store i8 19, ptr %0, align 1
  ret void
}
