package resolve

import (
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Kernel frames ("func+0x1c/0x60 [module]") name a symbol, not an address:
// they are resolved as the kernel's decode_stacktrace.sh and faddr2line do.
// The symbol is looked up by name in vmlinux (--vmlinux) or in the
// module's .ko (found by name under --modules-dir, '-' and '_' alike),
// the one whose size is the printed size is taken, and symbol address +
// offset is symbolized with its inline chain. A symbol whose size differs
// from the log's is a different build: the frame is left as printed and
// marked (Frame.Problem), never resolved against the wrong code. A build
// id printed by the log (the "CPU:" line's for vmlinux, "[mod id]" for a
// module) must match the file's.

// kernelImage is one vmlinux or module, its object in the module cache.
type kernelImage struct {
	path    string
	usable  bool                    // the cache has an object for path
	syms    map[string][]elf.Symbol // function symbols by name
	buildID string
	err     error
}

// kernel frames of rep are resolved in place; it reports whether any was.
func (r *Resolver) kernel(rep *report.Report) {
	if rep.Tool != "Kernel" || (r.opts.Vmlinux == "" && r.opts.ModulesDir == "") {
		return
	}
	for si := range rep.Stacks {
		st := &rep.Stacks[si]
		answers := make(map[[2]int][]symbolize.Frame)
		for fi := range st.Frames {
			f := &st.Frames[fi]
			if f.File != "" || f.Function == "" || !f.HasSymbolOffset || !f.HasSymbolSize {
				continue
			}
			img := r.kernelImage(f.Module, rep)
			if img == nil || !img.usable {
				continue
			}
			if f.BuildID != "" && img.buildID != "" && !strings.EqualFold(f.BuildID, img.buildID) {
				f.Problem = fmt.Sprintf("build id %s in the log, %s in %s", f.BuildID, img.buildID, img.path)
				continue
			}
			sym, problem := pickSymbol(img, f)
			if problem != "" {
				f.Problem = problem
				r.warnOnce("kernel:"+img.path+":"+f.Function, fmt.Sprintf("%s: %s", f.Raw, problem))
				continue
			}
			addr := sym.Value + f.SymbolOffset
			obj, _ := r.use(img.path)
			if obj == nil {
				continue
			}
			res := obj.SymbolizeMany([]uint64{addr}, lookup)
			if len(res) == 1 && known(res[0]) {
				answers[[2]int{si, fi}] = res[0]
			}
		}
		if len(answers) > 0 {
			expandStack(st, si, answers)
		}
	}
}

// pickSymbol finds the function symbol f names whose size is the one the
// log printed.
func pickSymbol(img *kernelImage, f *report.Frame) (elf.Symbol, string) {
	cands := img.syms[f.Function]
	if len(cands) == 0 {
		return elf.Symbol{}, fmt.Sprintf("no function %s in %s", f.Function, img.path)
	}
	for _, s := range cands {
		if s.Size == f.SymbolSize {
			if f.SymbolOffset >= s.Size {
				return elf.Symbol{}, fmt.Sprintf("offset 0x%x is past the end of %s (0x%x bytes)", f.SymbolOffset, f.Function, s.Size)
			}
			return s, ""
		}
	}
	return elf.Symbol{}, fmt.Sprintf("size mismatch: %s is 0x%x bytes in %s, 0x%x in the log (another build?); not resolved",
		f.Function, cands[0].Size, img.path, f.SymbolSize)
}

// kernelImage opens vmlinux (module "") or the named module once per run.
func (r *Resolver) kernelImage(module string, rep *report.Report) *kernelImage {
	if img, ok := r.kimages[module]; ok {
		return img
	}
	img := &kernelImage{}
	r.kimages[module] = img
	var path string
	switch {
	case module == "" && r.opts.Vmlinux != "":
		path = r.opts.Vmlinux
	case module != "" && r.opts.ModulesDir != "":
		p, err := debuginfo.KernelModule(r.opts.ModulesDir, module)
		if err != nil {
			img.err = err
			r.warnOnce("kmod:"+module, fmt.Sprintf("%s: %v", module, err))
			return img
		}
		path = p
	default:
		return img
	}
	img.path = path
	if err := img.load(r.loc.finder); err != nil {
		img.err = err
		r.warnOnce("kimg:"+path, fmt.Sprintf("%s: %v", path, err))
		return img
	}
	if module == "" && rep.Kernel != nil && rep.Kernel.BuildID != "" && img.buildID != "" &&
		!strings.EqualFold(rep.Kernel.BuildID, img.buildID) {
		img.err = fmt.Errorf("build id %s, the log's kernel is %s", img.buildID, rep.Kernel.BuildID)
		r.warnOnce("kimg:"+path, fmt.Sprintf("%s: %v: kernel frames left as printed", path, img.err))
		return img
	}
	obj, err := r.use(path)
	if err = openError(path, obj, err); err != nil {
		r.warnOnce("kimg:"+path, fmt.Sprintf("%s: %v", path, err))
	}
	img.usable = obj != nil
	return img
}

// errRelocatable: the engine reads DWARF as linked; a .ko's DWARF needs
// its relocations applied first, which it does not do yet.
var errRelocatable = errors.New("a relocatable object (a .ko): its DWARF needs relocations the symbolizer does not apply yet; frames left as printed")

// load reads the function symbols and the build id. The file stays with
// finder for the module cache to take, so it is read once.
func (img *kernelImage) load(finder *debuginfo.Finder) error {
	f, err := finder.Open(img.path)
	if err != nil {
		return err
	}
	if f.ELF.Type == elf.ET_REL {
		f.Close()
		return errRelocatable
	}
	syms, err := f.ELF.Symbols()
	if err != nil {
		f.Close()
		return fmt.Errorf("symbol table: %w", err)
	}
	img.syms = make(map[string][]elf.Symbol)
	for _, s := range syms {
		if t := elf.ST_TYPE(s.Info); t == elf.STT_FUNC || t == elf.STT_NOTYPE && s.Size > 0 {
			img.syms[s.Name] = append(img.syms[s.Name], s)
		}
	}
	img.buildID = hex.EncodeToString(f.BuildID)
	finder.Keep(f)
	return nil
}

// warnOnce passes msg to Warn the first time key is seen.
func (r *Resolver) warnOnce(key, msg string) {
	if r.opts.Warn == nil || r.warned[key] {
		return
	}
	r.warned[key] = true
	r.opts.Warn(msg)
}
