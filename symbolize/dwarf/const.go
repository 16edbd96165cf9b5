package dwarf

// The DWARF values the decoders and their callers name (DWARF 5, section
// 7, and the GNU and LLVM extensions that compilers emit).

// Tags.
const (
	TagArrayType         = 0x01
	TagFormalParameter   = 0x05
	TagPointerType       = 0x0f
	TagReferenceType     = 0x10
	TagCompileUnit       = 0x11
	TagSubroutineType    = 0x15
	TagTypedef           = 0x16
	TagInlinedSubroutine = 0x1d
	TagPtrToMemberType   = 0x1f
	TagSubrangeType      = 0x21
	TagConstType         = 0x26
	TagSubprogram        = 0x2e
	TagVariable          = 0x34
	TagVolatileType      = 0x35
	TagRestrictType      = 0x37
	TagPartialUnit       = 0x3c
	TagRvalueRefType     = 0x42
	TagSkeletonUnit      = 0x4a
	TagImmutableType     = 0x4b
)

// Attributes.
const (
	AttrLocation         = 0x02
	AttrName             = 0x03
	AttrByteSize         = 0x0b
	AttrStmtList         = 0x10
	AttrLowpc            = 0x11
	AttrHighpc           = 0x12
	AttrLanguage         = 0x13
	AttrCompDir          = 0x1b
	AttrLowerBound       = 0x22
	AttrUpperBound       = 0x2f
	AttrAbstractOrigin   = 0x31
	AttrCount            = 0x37
	AttrDeclFile         = 0x3a
	AttrDeclLine         = 0x3b
	AttrFrameBase        = 0x40
	AttrSpecification    = 0x47
	AttrType             = 0x49
	AttrEntrypc          = 0x52
	AttrRanges           = 0x55
	AttrCallColumn       = 0x57
	AttrCallFile         = 0x58
	AttrCallLine         = 0x59
	AttrLinkageName      = 0x6e
	AttrStrOffsetsBase   = 0x72
	AttrAddrBase         = 0x73
	AttrRnglistsBase     = 0x74
	AttrDwoName          = 0x76
	AttrLoclistsBase     = 0x8c
	AttrMIPSLinkageName  = 0x2007
	AttrGNUDwoName       = 0x2130
	AttrGNUDwoID         = 0x2131
	AttrGNURangesBase    = 0x2132
	AttrGNUAddrBase      = 0x2133
	AttrGNUDiscriminator = 0x2136
	AttrLLVMTagOffset    = 0x3e03
)

// Forms.
const (
	FormAddr          = 0x01
	FormBlock2        = 0x03
	FormBlock4        = 0x04
	FormData2         = 0x05
	FormData4         = 0x06
	FormData8         = 0x07
	FormString        = 0x08
	FormBlock         = 0x09
	FormBlock1        = 0x0a
	FormData1         = 0x0b
	FormFlag          = 0x0c
	FormSdata         = 0x0d
	FormStrp          = 0x0e
	FormUdata         = 0x0f
	FormRefAddr       = 0x10
	FormRef1          = 0x11
	FormRef2          = 0x12
	FormRef4          = 0x13
	FormRef8          = 0x14
	FormRefUdata      = 0x15
	FormIndirect      = 0x16
	FormSecOffset     = 0x17
	FormExprloc       = 0x18
	FormFlagPresent   = 0x19
	FormStrx          = 0x1a
	FormAddrx         = 0x1b
	FormRefSup4       = 0x1c
	FormStrpSup       = 0x1d
	FormData16        = 0x1e
	FormLineStrp      = 0x1f
	FormRefSig8       = 0x20
	FormImplicitConst = 0x21
	FormLoclistx      = 0x22
	FormRnglistx      = 0x23
	FormRefSup8       = 0x24
	FormStrx1         = 0x25
	FormStrx2         = 0x26
	FormStrx3         = 0x27
	FormStrx4         = 0x28
	FormAddrx1        = 0x29
	FormAddrx2        = 0x2a
	FormAddrx3        = 0x2b
	FormAddrx4        = 0x2c
	FormGNUAddrIndex  = 0x1f01
	FormGNUStrIndex   = 0x1f02
	FormGNURefAlt     = 0x1f20
	FormGNUStrpAlt    = 0x1f21
)

// Unit types (DWARF 5 unit headers).
const (
	unitCompile      = 1
	unitType         = 2
	unitSkeleton     = 4
	unitSplitCompile = 5
	unitSplitType    = 6
)
