# Hand-assembled .eh_frame and .debug_frame entries for augmentations and
# pointer encodings the compilers at hand do not emit on x86-64: "zRB" and
# "zRG" (AArch64's BTI and MTE markers, no data), "zPLRS" with absolute
# udata4/udata8/sdata8 pointers, old GCC's "eh" augmentation, a CIE
# without augmentation, pcrel sdata2 FDE addresses; in .debug_frame an FDE
# that names a CIE placed after it. Assembled into an object (cfi/augment.o,
# not linked: ld would rewrite .eh_frame). Never run.

	.text
	.globl	f1
f1:	nop
	nop
	ret
f2:	nop
	ret
f3:	nop
	ret

	.section .eh_frame,"a",@unwind
.Leh:
# CIE "zRB", FDE encoding pcrel|sdata4.
.Lc1:	.long	.Lc1e - .Lc1b
.Lc1b:	.long	0
	.byte	1
	.asciz	"zRB"
	.uleb128 1
	.sleb128 -8
	.byte	16
	.uleb128 1
	.byte	0x1b
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lc1e:
.Lf1:	.long	.Lf1e - .Lf1b
.Lf1b:	.long	.Lf1b - .Lc1
	.long	f1 - .
	.long	3
	.uleb128 0
	.byte	0x41, 0x0e, 0x10
	.balign	8, 0
.Lf1e:
# CIE "zPLRS": personality udata4 absolute, LSDA sdata8 absolute, FDE
# addresses udata8 absolute.
.Lc2:	.long	.Lc2e - .Lc2b
.Lc2b:	.long	0
	.byte	1
	.asciz	"zPLRS"
	.uleb128 1
	.sleb128 -8
	.byte	16
	.uleb128 7
	.byte	0x03
	.long	f3
	.byte	0x0c
	.byte	0x04
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lc2e:
.Lf2:	.long	.Lf2e - .Lf2b
.Lf2b:	.long	.Lf2b - .Lc2
	.quad	f2
	.quad	2
	.uleb128 8
	.quad	f3
	.byte	0x41, 0x0e, 0x10
	.balign	8, 0
.Lf2e:
# CIE "zRG", FDE encoding pcrel|sdata2.
.Lc3:	.long	.Lc3e - .Lc3b
.Lc3b:	.long	0
	.byte	1
	.asciz	"zRG"
	.uleb128 1
	.sleb128 -8
	.byte	16
	.uleb128 1
	.byte	0x1a
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lc3e:
.Lf3:	.long	.Lf3e - .Lf3b
.Lf3b:	.long	.Lf3b - .Lc3
	.value	f3 - .
	.value	2
	.uleb128 0
	.byte	0x41, 0x0e, 0x10
	.balign	8, 0
.Lf3e:
# Old GCC's "eh": an exception table pointer follows the string.
.Lc4:	.long	.Lc4e - .Lc4b
.Lc4b:	.long	0
	.byte	1
	.asciz	"eh"
	.quad	0
	.uleb128 1
	.sleb128 -8
	.byte	16
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lc4e:
.Lf4:	.long	.Lf4e - .Lf4b
.Lf4b:	.long	.Lf4b - .Lc4
	.quad	f1
	.quad	1
	.byte	0x0e, 0x10
	.balign	8, 0
.Lf4e:
# No augmentation: absolute pointers of the ELF class's size.
.Lc5:	.long	.Lc5e - .Lc5b
.Lc5b:	.long	0
	.byte	3
	.asciz	""
	.uleb128 1
	.sleb128 -8
	.uleb128 16
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lc5e:
.Lf5:	.long	.Lf5e - .Lf5b
.Lf5b:	.long	.Lf5b - .Lc5
	.quad	f2
	.quad	2
	.byte	0x41, 0x0e, 0x10
	.balign	8, 0
.Lf5e:
	.long	0

	.section .debug_frame,"",@progbits
.Ldf:
# An FDE whose CIE comes after it.
.Ldf1:	.long	.Ldf1e - .Ldf1b
.Ldf1b:	.long	.Ldc - .Ldf
	.quad	f1
	.quad	3
	.byte	0x41, 0x0e, 0x10, 0x86, 0x02
	.balign	8, 0
.Ldf1e:
.Ldc:	.long	.Ldce - .Ldcb
.Ldcb:	.long	0xffffffff
	.byte	1
	.asciz	""
	.uleb128 1
	.sleb128 -8
	.byte	16
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Ldce:
