// sanitrace change: this file is not in upstream.

package demangle

import "testing"

// FuzzDemangle feeds arbitrary names to both output styles: no panic, no
// hang and output bounded by the default maximum length whatever the input.
func FuzzDemangle(f *testing.F) {
	for _, s := range []string{
		"_ZN5boost11multi_index6memberIN6corpus5OrderEmXadL_ZNS2_2idEEEE",
		"_ZSt9use_facetIKSt5ctypeIcEERKT_RKSt6locale",
		"_ZZN6corpus3mixIJcccEEEmiENUlDpT_E_D4Ev",
		"_ZGTtNKSt11logic_error4whatEv",
		"_ZN5boost4asio6detail9scheduler3runERNS_6system10error_codeE.isra.0.cold",
		"_ZNSt17_Optional_payloadIN6corpus6RecordELb0ELb0ELb0EECI2St22_Optional_payload_baseIS1_EEbOS4_",
		"_Z1fIiEDTclL_Z1gIT_EDTcl9__declvalIS0_ELi0EEEvEEEv",
		"_Z1fIJEEvDpT_",
		"_Z1aIN1bIN1cIN1dIN1eIiEEEEEEEEvT_S6_S5_S4_S3_S2_S1_S0_S_",
		"_RNvCs1234_5crate4func",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, opts := range [][]Option{nil, {LLVMStyle}} {
			s, err := ToString(name, opts...)
			if err == nil && len(s) >= 1<<defaultMaxLengthPow {
				t.Fatalf("%q: %d bytes, more than the bound", name, len(s))
			}
		}
	})
}
