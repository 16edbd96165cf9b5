package cxxfilt

import (
	"slices"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/demanglecorpus"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// want is what the style's tool printed for c's name.
func want(c demanglecorpus.Case, style Style) string {
	switch style {
	case GNU:
		return c.GNU
	case LLVM19:
		return c.LLVM19
	}
	return c.LLVM14
}

// fastShapes are names of the corpus fast.go must answer itself, one or
// more per construct it reads, with the styles it answers them in (it
// declines where libiberty collapses a doubled const).
var fastShapes = map[string][]Style{
	"_ZN3CWEC4Et":      {LLVM, GNU, LLVM19}, // GCC's unified constructor
	"_ZN4TypeD4Ev":     {LLVM, GNU, LLVM19},
	"_ZTIPDn":          {LLVM, GNU, LLVM19}, // std::nullptr_t / decltype(nullptr)
	"_ZTVN4llvm4PassE": {LLVM, GNU, LLVM19},
	"_ZTSN4llvm4PassE": {LLVM, GNU, LLVM19},
	"_ZTTNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEEE": {LLVM, GNU, LLVM19},
	// A template constructor: its own arguments are the parameters'.
	"_ZN5boost10shared_ptrINS_16exception_detail15error_info_baseEEC2IS2_EEPT_": {LLVM, GNU, LLVM19},
	// Empty packs, and libiberty's "Module>>" after one.
	"_ZN11SmallVectorIP5TokenLm9EEC2IJEEEDpOT_":                                               {LLVM, GNU, LLVM19},
	"_ZN4llvm11PassManagerINS_15MachineFunctionENS_15AnalysisManagerIS1_JEEEJEE3runERS1_RS3_": {LLVM, GNU, LLVM19},
	// Pack expansions, with references collapsing.
	"_ZNSt5tupleIJOiEEC2IJiELb1ELb1EEEDpOT_":              {LLVM, GNU, LLVM19},
	"_ZNSt5dequeIcSaIcEE16_M_push_back_auxIJRKcEEEvDpOT_": {LLVM, GNU, LLVM19},
	// A member's address: "&(…)" in LLVM 14, "&…" in 19 and libiberty.
	"_ZNK5boost11multi_index6detail21non_const_member_baseIN6corpus5OrderEmXadL_ZNS4_2idEEEEclERS4_": {LLVM, GNU, LLVM19},
	// Function types and their declarators.
	"_ZN4llvm17runFuzzerOnInputsEiPPcPFiPKhmEPFiPiPS1_E": {LLVM, GNU, LLVM19},
	"_ZNSt8functionIFbcEEC2Ev":                           {LLVM, GNU, LLVM19},
	"_ZTIFbN4llvm7SDValueEE":                             {LLVM, GNU, LLVM19},
	"_ZN4llvm22calculateRegAllocScoreERKNS_15MachineFunctionENS_12function_refIFdRKNS_17MachineBasicBlockEEEENS3_IFbRKNS_12MachineInstrEEEE": {LLVM, GNU, LLVM19},
	// Arrays, and thunks.
	"_ZN5boost5uuids6detail4sha110get_digestERA5_j": {LLVM, GNU, LLVM19},
	"_ZN5boost13property_tree11basic_ptreeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES7_St4lessIS7_EE3putIA6_cEERSA_RKNS0_11string_pathIS7_NS0_13id_translatorIS7_EEEERKT_": {LLVM, GNU, LLVM19},
	"_ZTv0_n24_N5boost2io22basic_oaltstringstreamIcSt11char_traitsIcESaIcEED0Ev":                                                                                                      {LLVM, GNU, LLVM19},
	"_ZThn16_N5boost9xpressive11regex_errorD0Ev": {LLVM, GNU, LLVM19},
	// Literals: an enumerator, a char, a negative int, a bool.
	"_ZTISt11_Mutex_baseILN9__gnu_cxx12_Lock_policyE2EE":                                            {LLVM, GNU, LLVM19},
	"_ZN5boost13property_tree6detail8rapidxml12xml_documentIcE20attribute_value_predILc34EE4testEc": {LLVM, GNU, LLVM19},
	"_ZN5boost6spirit2qi6detail16check_max_digitsILin1EE4callEm":                                    {LLVM, GNU, LLVM19},
	"_ZTISt10moneypunctIcLb1EE":                                                                     {LLVM, GNU, LLVM19},
	// Clone suffixes: " (.a.b)" in LLVM, " [clone .a] [clone .b]" in libiberty.
	"_Z8run_texti.cold":         {LLVM, GNU, LLVM19},
	"_ZN8SettingsaSEOS_.isra.0": {LLVM, GNU, LLVM19},
	"_ZNK12_GLOBAL__N_114less_by_digestISt6vectorIiSaIiEEEclERKS3_S6_.constprop.0.isra.0":     {LLVM, GNU, LLVM19},
	"_ZL17setSourceLocationRN9ValueFlow5ValueE14SourceLocationPK5TokenS2_.constprop.0.isra.0": {LLVM, GNU, LLVM19},
	// Operators, the anonymous namespace, std:: templates, a template
	// parameter as a prefix, basic_string's substitution.
	"_ZNKSt6localeeqERKS_":           {LLVM, GNU, LLVM19},
	"_ZN12_GLOBAL__N_13dagEi":        {LLVM, GNU, LLVM19},
	"_ZSt4sortIPcEvT_S1_":            {LLVM, GNU, LLVM19},
	"_ZSteqIiiEbRKSt4pairIT_T0_ES5_": {LLVM, GNU, LLVM19},
	"_ZNK13SelectMapKeysclISt4pairIKiPK8VariableEEENT_10first_typeERKS7_": {LLVM, GNU, LLVM19},
	"_ZNSbIwSt11char_traitsIwESaIwEEC1Ev":                                 {LLVM, GNU, LLVM19},
	// libiberty names a constructor by its last source name outside
	// template arguments.
	"_ZN12_GLOBAL__N_110calculatorIN9__gnu_cxx17__normal_iteratorIPKcNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEEEEC1Ev": {LLVM, GNU, LLVM19},
	// A const template argument made const again: LLVM prints both,
	// libiberty one, and fast.go leaves that to the module.
	"_ZSt3maxIdERKT_S2_S2_":                                           {LLVM, GNU, LLVM19},
	"_ZSt9use_facetIKSt5ctypeIcEERKT_RKSt6locale":                     {LLVM, LLVM19},
	"_ZNSt10__pair_getILm0EE11__const_getIKiiEERKT_RKSt4pairIS3_T0_E": {LLVM, LLVM19},
}

// TestFastCorpus demangles every name of the recorded corpus by both
// paths, fast.go first and the module alone, in all three styles, and
// compares each with the reference tools' output; the shapes above must
// be fast.go's own answers.
func TestFastCorpus(t *testing.T) {
	_, cases := demanglecorpus.Read(t)
	seen := map[string]bool{}
	for _, style := range []Style{LLVM, GNU, LLVM19} {
		fast := 0
		for _, c := range cases {
			for _, path := range []demanglePath{fastFirst, moduleOnly} {
				if got := demangleVia(c.Name, style, path); got != want(c, style) {
					t.Errorf("style %d, path %d, %s:\n got  %s\n want %s", style, path, c.Name, got, want(c, style))
				}
			}
			_, ok := fastDemangle(c.Name, style)
			if ok && !(style == GNU && len(c.Name) > gnuMaxMangled) {
				fast++
			}
			if styles, listed := fastShapes[c.Name]; listed {
				seen[c.Name] = true
				if answers := slices.Contains(styles, style); ok != answers {
					t.Errorf("style %d, %s: fast.go answers %v, want %v", style, c.Name, ok, answers)
				}
			}
		}
		t.Logf("style %d: fast.go answers %d of %d names", style, fast, len(cases))
	}
	for name := range fastShapes {
		if !seen[name] {
			t.Errorf("%s: not in the corpus", name)
		}
	}
}

// FuzzFastDemangle holds fast.go to the module's path: a name demangles
// to the same bytes in each style whether fast.go may answer or not. Where
// the two differ, the style's reference tool decides: the module's path
// has byte-level rewrites that can misread an identifier ("_Z7KT_0000",
// whose "KT_" reads as a const template parameter), which fast.go's
// parser does not.
func FuzzFastDemangle(f *testing.F) {
	for name := range fastShapes {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, style := range []Style{LLVM, GNU, LLVM19} {
			got := demangleVia(name, style, fastFirst)
			module := demangleVia(name, style, moduleOnly)
			if got == module {
				continue
			}
			if ref, ok := referenceDemangling(t, name, style); ok && got == ref {
				continue
			}
			t.Fatalf("style %d, %q:\n fast   %q\n module %q", style, name, got, module)
		}
	})
}

// referenceDemangling returns what the style's tool prints for name when
// the tool reads the name whole (the filters split their input at bytes no
// symbol name holds). Without the tool the input is skipped: the seeds
// hold names where the module's path is wrong.
func referenceDemangling(t *testing.T, name string, style Style) (string, bool) {
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return "", false
		}
	}
	tool, args := "llvm-cxxfilt-14", []string(nil)
	switch style {
	case GNU:
		tool, args = "c++filt", []string{"-i"}
	case LLVM19:
		tool = "llvm-cxxfilt-19"
	}
	if !reftool.Installed(tool) {
		t.Skipf("the two paths differ on %q and %s is not installed to judge", name, tool)
	}
	out, _, code := reftool.Run(t, tool, args, name+"\n")
	return strings.TrimSuffix(out, "\n"), code == 0
}
