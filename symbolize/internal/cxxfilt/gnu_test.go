package cxxfilt

import (
	"strings"
	"testing"
)

// TestGNUClasses has one or two real names per libiberty behaviour the GNU
// style reproduces (gnu.go, gnusr.go, srsubs.go, rust.go). The expected strings are what
// binutils 2.40 "c++filt -i" prints, which is what addr2line -C prints:
// both call libiberty with DMGL_PARAMS | DMGL_ANSI (plain c++filt adds
// DMGL_VERBOSE and spells std::string out in full).
func TestGNUClasses(t *testing.T) {
	for _, tc := range []struct {
		class, name, want string
	}{
		{
			"constructor of a closure named after the last source name, a parameter type of its signature",
			"_ZZN6corpus8exerciseIfEEmiENUlRKSt8optionalIfEE1_C4EOS5_",
			"corpus::exercise<float>(int)::{lambda(std::optional<float> const&)#3}::optional({lambda(std::optional<float> const&)#3}&&)",
		},
		{
			"destructor of an unnamed type named after the enclosing function's class",
			"_ZZNK5boost8rationalIxEltERKS1_ENUt_D4Ev",
			"boost::rational<long long>::operator<(boost::rational<long long> const&) const::{unnamed type#1}::~rational()",
		},
		{
			"destructor of a closure named after the enclosing function's last parameter type",
			"_ZZNKSt8__detail15_BracketMatcherINSt7__cxx1112regex_traitsIwEELb1ELb0EE8_M_applyEwSt17integral_constantIbLb0EEENUlvE_D4Ev",
			"std::__detail::_BracketMatcher<std::__cxx11::regex_traits<wchar_t>, true, false>::_M_apply(wchar_t, std::integral_constant<bool, false>) const::{lambda()#1}::~integral_constant()",
		},
		{
			// cppcheck's test runner (the bench's cppcheck-asan): the
			// inner-encoding fix must leave a local name's encoding
			// alone, where S1_ shares the outer argument's node.
			"a local name's encoding among template arguments, its substitutions of an outer argument kept",
			"_Z13visitAstNodesIK5TokenZ11findAstNodeIZNK17ValueFlowAnalyzer9findMatchEPS1_EUlS4_E_ES4_S4_RKT_EUlS4_E_vEvPS6_RKT0_",
			"void visitAstNodes<Token const, findAstNode<ValueFlowAnalyzer::findMatch(Token const*) const::{lambda(Token const*)#1}>(Token const*, ValueFlowAnalyzer::findMatch(Token const*) const::{lambda(Token const*)#1} const&)::{lambda(Token const*)#1}, void>(Token const*, findAstNode<ValueFlowAnalyzer::findMatch(Token const*) const::{lambda(Token const*)#1}>(Token const*, ValueFlowAnalyzer::findMatch(Token const*) const::{lambda(Token const*)#1} const&)::{lambda(Token const*)#1} const&)",
		},
		{
			"Ss is std::string without DMGL_VERBOSE, also in a constructor's parameters",
			"_ZNSt12ctype_bynameIcEC1ERKSsm",
			"std::ctype_byname<char>::ctype_byname(std::string const&, unsigned long)",
		},
		{
			"sr with qualifier levels up to E: no substitutions",
			"_ZN4llvm4yaml7yamlizeISt6vectorINS_8WasmYAML6ImportESaIS4_EENS0_12EmptyContextEEENSt9enable_ifIXsr18has_SequenceTraitsIT_EE5valueEvE4typeERNS0_2IOERS9_bRT0_",
			"std::enable_if<has_SequenceTraits<std::vector<llvm::WasmYAML::Import, std::allocator<llvm::WasmYAML::Import> > >::value, void>::type llvm::yaml::yamlize<std::vector<llvm::WasmYAML::Import, std::allocator<llvm::WasmYAML::Import> >, llvm::yaml::EmptyContext>(llvm::yaml::IO&, std::vector<llvm::WasmYAML::Import, std::allocator<llvm::WasmYAML::Import> >&, bool, llvm::yaml::EmptyContext&)",
		},
		{
			"sr with an N type: the nested name's substitutions count",
			"_ZN5boost17allocator_destroyISaIN6corpus3BigEES2_EENSt9enable_ifIXsrNS_6detail17alloc_has_destroyIT_T0_vEE5valueEvE4typeERS7_PS8_",
			"std::enable_if<boost::detail::alloc_has_destroy<std::allocator<corpus::Big>, corpus::Big, void>::value, void>::type boost::allocator_destroy<std::allocator<corpus::Big>, corpus::Big>(std::allocator<corpus::Big>&, corpus::Big*)",
		},
		{
			"sr with an N type, enable_if in the return type",
			"_ZN5boost18allocator_max_sizeISaItEEENSt9enable_ifIXsrNS_6detail18alloc_has_max_sizeIT_vEE5valueENS_19allocator_size_typeIS5_vE4typeEE4typeERKS5_",
			"std::enable_if<boost::detail::alloc_has_max_size<std::allocator<unsigned short>, void>::value, boost::allocator_size_type<std::allocator<unsigned short>, void>::type>::type boost::allocator_max_size<std::allocator<unsigned short> >(std::allocator<unsigned short> const&)",
		},
		{
			"sr in the old form (no E): the new form fails, the name is read again",
			"_Z1fIiEDTsr1A1xET_",
			"decltype (A::x) f<int>(int)",
		},
		{
			"a called unresolved template is parenthesised as a whole",
			"_ZN4llvm17make_filter_rangeIRNS_10BasicBlockESt8functionIFbRNS_11InstructionEEEEENS_14iterator_rangeINS_20filter_iterator_implIDTclsr3stdE5beginclsr3stdE7declvalIRT_EEEET0_NS_6detail15fwd_or_bidi_tagISC_E4typeEEEEEOSA_SD_",
			"llvm::iterator_range<llvm::filter_iterator_impl<decltype (std::begin((std::declval<llvm::BasicBlock&>)())), std::function<bool (llvm::Instruction&)>, llvm::detail::fwd_or_bidi_tag<decltype (std::begin((std::declval<llvm::BasicBlock&>)()))>::type> > llvm::make_filter_range<llvm::BasicBlock&, std::function<bool (llvm::Instruction&)> >(llvm::BasicBlock&, std::function<bool (llvm::Instruction&)>)",
		},
		{
			"a called encoding (L_Z...E) prints its name only",
			"_ZN5boost4mp1113mp_with_indexILm5ENS_5beast16buffers_cat_viewIJNS_4asio12const_bufferES5_NS2_4http10chunk_crlfEEE14const_iterator9incrementEEEDTclcl7declvalIT0_EEclL_ZSt7declvalISt17integral_constantImLm0EEEDTcl9__declvalIT_ELi0EEEvEEEEmOSB_",
			"decltype (((declval<boost::beast::buffers_cat_view<boost::asio::const_buffer, boost::asio::const_buffer, boost::beast::http::chunk_crlf>::const_iterator::increment>)())((std::declval<std::integral_constant<unsigned long, 0ul> >)())) boost::mp11::mp_with_index<5ul, boost::beast::buffers_cat_view<boost::asio::const_buffer, boost::asio::const_buffer, boost::beast::http::chunk_crlf>::const_iterator::increment>(unsigned long, boost::beast::buffers_cat_view<boost::asio::const_buffer, boost::asio::const_buffer, boost::beast::http::chunk_crlf>::const_iterator::increment&&)",
		},
		{
			"an empty pack before the last printed template argument keeps its commas (issue 24)",
			"_ZNSt6threadC2IZ4mainE3$_0JEvEEOT_DpOT0_",
			"std::thread::thread<main::$_0, , void>(main::$_0&&)",
		},
		{
			"an empty pack expansion before the last printed parameter keeps its commas",
			"_Z1fIJEEviDpT_i",
			"void f<>(int, , int)",
		},
		{
			"1024 bytes: the longest name libiberty demangles",
			"_Z1f" + strings.Repeat("P", 1019) + "i",
			"f(int" + strings.Repeat("*", 1019) + ")",
		},
		{
			"1025 bytes: printed mangled",
			"_Z1f" + strings.Repeat("P", 1020) + "i",
			"_Z1f" + strings.Repeat("P", 1020) + "i",
		},
	} {
		t.Run(tc.class, func(t *testing.T) {
			got, err := ToString(tc.name, GNU)
			if err != nil {
				got = tc.name // as c++filt and addr2line print what they cannot demangle
			}
			if got != tc.want {
				t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
			}
		})
	}
}

// TestGNULengthLimitLLVM checks that the 1024-byte limit is libiberty's
// alone: llvm-cxxfilt 14 demangles this 1025-byte name, and so does LLVM style.
func TestGNULengthLimitLLVM(t *testing.T) {
	name := "_Z1f" + strings.Repeat("P", 1020) + "i"
	got, err := ToString(name, LLVM)
	if err != nil {
		t.Fatalf("%s: %v", name[:20], err)
	}
	if want := "f(int" + strings.Repeat("*", 1020) + ")"; got != want {
		t.Errorf("got %.30s..., want %.30s...", got, want)
	}
}

// TestMarkerBytes: a name holding the bytes the editor marks spacing with
// is printed mangled in both styles (no real name holds control bytes).
func TestMarkerBytes(t *testing.T) {
	for _, name := range []string{"_Z3f\x01ov", "_Z3f\x02ov"} {
		for _, style := range []Style{LLVM, GNU} {
			if got := Demangle(name, style); got != name {
				t.Errorf("style %d: %q demangled to %q", style, name, got)
			}
		}
	}
}

// TestSrInsideIdentifier: the old-form rewrite of "sr" (srOldForm) skips
// an "sr" inside the identifier it just spelled; it used to slice out of
// range there (found by FuzzDemangle). c++filt -i and llvm-cxxfilt-14 print
// the name mangled.
func TestSrInsideIdentifier(t *testing.T) {
	const name = "_Zsr7Asr1A00000000"
	if got := srOldForm(name); got != "_ZsrN7Asr1A00E000000" {
		t.Errorf("srOldForm(%q) = %q", name, got)
	}
	for _, style := range []Style{LLVM, GNU} {
		if got := Demangle(name, style); got != name {
			t.Errorf("style %d: %q demangled to %q", style, name, got)
		}
	}
}

// TestNameOnly: the GNU style without parameters is the name alone, as
// libiberty without DMGL_PARAMS ("c++filt -i -p") prints it.
func TestNameOnly(t *testing.T) {
	const name = "_ZSt9use_facetISt5ctypeIcEERKT_RKSt6locale"
	got, err := NameOnly(name)
	if want := "std::use_facet<std::ctype<char> >"; err != nil || got != want {
		t.Errorf("%s:\n got  %s (%v)\n want %s", name, got, err, want)
	}
}
