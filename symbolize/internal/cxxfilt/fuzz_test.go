package cxxfilt

import (
	"strings"
	"testing"
)

// FuzzDemangle feeds arbitrary names to both styles: no panic, no hang,
// output bounded, and a name that is not mangled comes back unchanged.
func FuzzDemangle(f *testing.F) {
	for _, s := range []string{
		"_ZN5boost11multi_index6memberIN6corpus5OrderEmXadL_ZNS2_2idEEEE",
		"_ZSt9use_facetIKSt5ctypeIcEERKT_RKSt6locale",
		"_ZZN6corpus3mixIJcccEEEmiENUlDpT_E_D4Ev",
		"_ZGTtNKSt11logic_error4whatEv",
		"_ZN5boost4asio6detail9scheduler3runERNS_6system10error_codeE.isra.0.cold",
		"_ZNSt17_Optional_payloadIN6corpus6RecordELb0ELb0ELb0EECI2St22_Optional_payload_baseIS1_EEbOS4_",
		"_Z1fIiEDTclL_Z1gIT_EDTcl9__declvalIS0_ELi0EEEvEEEv",
		"_ZN4llvm10checkedAddIiEENSt9enable_ifIXsr3std9is_signedIT_EE5valueENS_8OptionalIS2_EEE4typeES2_S2_",
		"_ZN5boost17allocator_destroyISaIN6corpus3BigEES2_EENSt9enable_ifIXsrNS_6detail17alloc_has_destroyIT_T0_vEE5valueEvE4typeERS7_PS8_",
		"_Z1fIJEEvDpT_",
		"_Z1aIN1bIN1cIN1dIN1eIiEEEEEEEEvT_S6_S5_S4_S3_S2_S1_S0_S_",
		"_RNvCs1234_5crate4func",
		"_RINvMNtCsgEmfK2I1SDS_4core6optionINtB3_6OptionNtNtNtNtCsjrHSEGnQ3l9_3std12backtrace_rs9symbolize5gimli7ContextE3mapINtBK_6EitherNtBK_7MappingBI_ENcNtB1P_s_1B0EBQ_",
		"_RINvC3foo3barFG_RL0_hEuDG_NtC3std3AnyEL1_KcdfKnn80000000000000000000000000000000_EB2_.llvm.1",
		"_RNvNCNKNvNtNtCsjrHSEGnQ3l9_3std2io5stdio14OUTPUT_CAPTURE0023___RUST_STD_INTERNAL_VAL",
		"_RNvC3foou5yy09z",
		"main.(*Stack[go.shape.string]).Push",
		"_ZN9__gnu_cxx5__ops10_Iter_predISt5_BindIFMN12Suppressions11SuppressionEKFbRKS4_EPS5_St12_PlaceholderILi1EEEEEC2ESD_",
		"_Z1fIFPFvcEiEEvv",
		"_Z13visitAstNodesIK5TokenZ11findAstNodeIZNK17ValueFlowAnalyzer9findMatchEPS1_EUlS4_E_ES4_S4_RKT_EUlS4_E_vEvPS6_RKT0_",
		"_ZN5boost19allocator_constructISaIcEcJRKcEEENSt9enable_ifIXsrNS_6detail19alloc_has_constructIvT_T0_JDpT1_EEE5valueEvE4typeERS7_PS8_DpOS9_",
		"_ZNK4llvm5MachO6TargetcvNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEEv",
		"_ZN5boost4swapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES6_EENS_11enable_if_cIXaantsrN15boost_swap_impl8is_constIT_EE5valuentsrNS9_IT0_EE5valueEvE4typeERSA_RSC_",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, style := range []Style{LLVM, GNU, LLVM19} {
			out := Demangle(name, style)
			if len(out) >= 1<<maxOutputPow && out != name {
				t.Fatalf("%q: %d bytes", name, len(out))
			}
			if !strings.HasPrefix(name, "_Z") && !strings.HasPrefix(name, "_R") && out != name {
				t.Fatalf("%q changed to %q", name, out)
			}
		}
	})
}
