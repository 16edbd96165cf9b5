# Hand-written CFI for the cfi package's fixtures: every DW_CFA instruction
# and augmentation gcc, clang and Go emit, in .eh_frame (through the
# assembler's .cfi directives) and in a hand-assembled .debug_frame
# (versions 1, 3 and 4, 32- and 64-bit DWARF). The code is never run.

	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	call	every
	hlt
	.cfi_endproc
	.size	_start, .-_start

	.globl	every
	.type	every, @function
every:
	.cfi_startproc
	.cfi_personality 0x9b, DW.ref.personality
	.cfi_lsda 0x1b, .Llsda
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register rbp
	pushq	%rbx
	.cfi_offset rbx, -24
	.cfi_val_offset r12, -32
	.cfi_register r13, r14
	.cfi_same_value r15
	.cfi_undefined rax
	.cfi_remember_state
	.skip	300, 0x90		# advance_loc2
	.cfi_offset xmm3, -40
	.cfi_offset 200, -48		# beyond readelf's register table
	.cfi_restore rbx
	.cfi_restore_state
	.skip	70000, 0x90		# advance_loc4
	.cfi_def_cfa rsp, 16
	.cfi_def_cfa_offset 32
	.cfi_escape 0x2e, 0x10		# DW_CFA_GNU_args_size 16
	.cfi_escape 0x11, 0x03, 0x7d	# DW_CFA_offset_extended_sf rbx, -3*-8
	.cfi_escape 0x12, 0x07, 0x7e	# DW_CFA_def_cfa_sf rsp, -2*-8
	.cfi_escape 0x13, 0x7c		# DW_CFA_def_cfa_offset_sf -4*-8
	.cfi_escape 0x15, 0x0c, 0x7a	# DW_CFA_val_offset_sf r12, -6*-8
	.cfi_escape 0x2f, 0x0d, 0x02	# DW_CFA_GNU_negative_offset_extended r13, 2
	.cfi_escape 0x06, 0x03		# DW_CFA_restore_extended rbx
	.cfi_escape 0x05, 0x11, 0x05	# DW_CFA_offset_extended xmm0, 5*-8
	.cfi_escape 0x14, 0x12, 0x06	# DW_CFA_val_offset xmm1, 6*-8
	nop
	# DW_CFA_expression rbx: DW_OP_breg6 -8, DW_OP_const1u 4, DW_OP_minus
	.cfi_escape 0x10, 0x03, 0x05, 0x76, 0x78, 0x08, 0x04, 0x1c
	# DW_CFA_val_expression r12: DW_OP_bregx 7 8, DW_OP_lit3, DW_OP_shl, DW_OP_plus_uconst 1
	.cfi_escape 0x16, 0x0c, 0x07, 0x92, 0x07, 0x08, 0x33, 0x24, 0x23, 0x01
	nop
	# DW_CFA_def_cfa_expression: DW_OP_breg7 8, DW_OP_deref, DW_OP_const2s -2,
	# DW_OP_plus, DW_OP_constu 300, DW_OP_consts -300, DW_OP_drop, DW_OP_drop,
	# DW_OP_dup, DW_OP_bra +1, DW_OP_nop, DW_OP_skip 0, DW_OP_deref_size 4,
	# DW_OP_reg3, DW_OP_const4u, DW_OP_const8s, DW_OP_pick 0, DW_OP_swap,
	# DW_OP_rot, DW_OP_over, DW_OP_abs, DW_OP_neg, DW_OP_not, DW_OP_and,
	# DW_OP_or, DW_OP_xor, DW_OP_mul, DW_OP_div, DW_OP_mod, DW_OP_shr,
	# DW_OP_shra, DW_OP_eq, DW_OP_ne, DW_OP_lt, DW_OP_gt, DW_OP_le,
	# DW_OP_call_frame_cfa, DW_OP_stack_value, DW_OP_const1s -1, DW_OP_lit31
	.cfi_escape 0x0f, 0x42, 0x77, 0x08, 0x06, 0x0b, 0xfe, 0xff, 0x22, 0x10, 0xac, 0x02, 0x11, 0xd4, 0x7d, 0x13, 0x13, 0x12, 0x28, 0x01, 0x00, 0x96, 0x2f, 0x00, 0x00, 0x94, 0x04, 0x53, 0x0c, 0x01, 0x02, 0x03, 0x04, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x15, 0x00, 0x16, 0x17, 0x14, 0x19, 0x1f, 0x20, 0x1a, 0x21, 0x27, 0x1e, 0x1b, 0x1d, 0x25, 0x26, 0x29, 0x2e, 0x2d, 0x2b, 0x2c, 0x9c, 0x9f, 0x09, 0xff, 0x4f
	nop
	.cfi_def_cfa_register rax	# back to a register: the offset from before the expression
	nop
	.cfi_def_cfa rsp, 8
	.cfi_escape 0x0c, 0x85, 0x01, 0x08	# DW_CFA_def_cfa r133 (no name), 8
	.cfi_escape 0x0c, 0x07, 0x08
	.cfi_escape 0x0b		# DW_CFA_restore_state without remember
	.cfi_escape 0x08, 0x76		# DW_CFA_same_value k0
	.cfi_escape 0x07, 0x7e		# DW_CFA_undefined r126 (readelf's last column)
	popq	%rbx
	popq	%rbp
	ret
.Levery_end:
	.cfi_endproc
	.size	every, .-every

	# A signal frame (S augmentation), and a return column other than 16.
	.globl	sigframe
	.type	sigframe, @function
	nop
sigframe:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_return_column r14
	.cfi_def_cfa rsp, 160
	.cfi_offset r14, -8
	.cfi_offset rip, -16
	nop
	nop
	ret
.Lsig_end:
	.cfi_endproc
	.size	sigframe, .-sigframe

	.section .rodata
.Llsda:
	.byte	0xff, 0xff, 0x01, 0x00
	.hidden	DW.ref.personality
	.weak	DW.ref.personality
	.section .data.DW.ref.personality,"awG",@progbits,DW.ref.personality,comdat
	.align	8
	.type	DW.ref.personality, @object
	.size	DW.ref.personality, 8
DW.ref.personality:
	.quad	personality
	.text
	.globl	personality
	.type	personality, @function
personality:
	ret
	.size	personality, .-personality

	# A hand-assembled .debug_frame: CIEs of versions 1, 3 and 4 and of
	# 64-bit DWARF, FDEs using DW_CFA_set_loc, advance_loc1,
	# MIPS_advance_loc8 and GNU_window_save, a range the linker discarded,
	# a user-defined instruction and a zero terminator.
	.section .debug_frame,"",@progbits
.Ldf:
.Lcie1:
	.long	.Lcie1e - .Lcie1b
.Lcie1b:
	.long	0xffffffff
	.byte	1			# version
	.asciz	""
	.uleb128 1			# code alignment
	.sleb128 -8			# data alignment
	.byte	16			# return address column
	.byte	0x0c, 0x07, 0x08	# DW_CFA_def_cfa rsp, 8
	.byte	0x90, 0x01		# DW_CFA_offset rip, 1
	.balign	8, 0
.Lcie1e:
.Lfde1:
	.long	.Lfde1e - .Lfde1b
.Lfde1b:
	.long	.Lcie1 - .Ldf
	.quad	every
	.quad	.Levery_end - every
	.byte	0x41			# DW_CFA_advance_loc 1
	.byte	0x0e, 0x10		# DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02		# DW_CFA_offset rbp, 2
	.byte	0x02, 0x03		# DW_CFA_advance_loc1 3
	.byte	0x0d, 0x06		# DW_CFA_def_cfa_register rbp
	.byte	0x01
	.quad	every + 300		# DW_CFA_set_loc
	.byte	0x83, 0x03		# DW_CFA_offset rbx, 3
	.byte	0x1d
	.quad	2			# DW_CFA_MIPS_advance_loc8 2
	.byte	0xc3			# DW_CFA_restore rbx
	.byte	0x2d			# DW_CFA_GNU_window_save
	.byte	0x0a, 0x0b		# remember, restore state
	.byte	0x09, 0x10, 0x00	# DW_CFA_register rip in rax
	.byte	0x1c			# user defined: readelf stops the entry here
	.byte	0x00
	.balign	8, 0
.Lfde1e:
.Lcie3:
	.long	.Lcie3e - .Lcie3b
.Lcie3b:
	.long	0xffffffff
	.byte	3			# version 3: uleb128 return column
	.asciz	""
	.uleb128 4
	.sleb128 -4
	.uleb128 16
	.byte	0x0c, 0x07, 0x08
	.byte	0x05, 0x10, 0x02	# DW_CFA_offset_extended rip, 2
	.balign	4, 0
.Lcie3e:
.Lfde3:
	.long	.Lfde3e - .Lfde3b
.Lfde3b:
	.long	.Lcie3 - .Ldf
	.quad	_start
	.quad	12
	.byte	0x42			# DW_CFA_advance_loc 2 (x4)
	.byte	0x13, 0x7c		# DW_CFA_def_cfa_offset_sf -4 (x-4)
	.balign	4, 0
.Lfde3e:
	# An FDE whose code the linker discarded: begin and range 0.
	.long	.Lfde0e - .Lfde0b
.Lfde0b:
	.long	.Lcie3 - .Ldf
	.quad	0
	.quad	0
	.byte	0, 0, 0, 0
.Lfde0e:
.Lcie4:
	.long	.Lcie4e - .Lcie4b
.Lcie4b:
	.long	0xffffffff
	.byte	4			# version 4: address and segment sizes
	.asciz	""
	.byte	8			# address size
	.byte	0			# segment selector size
	.uleb128 1
	.sleb128 -8
	.uleb128 16
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lcie4e:
.Lfde4:
	.long	.Lfde4e - .Lfde4b
.Lfde4b:
	.long	.Lcie4 - .Ldf
	.quad	sigframe
	.quad	.Lsig_end - sigframe
	.byte	0x44, 0x0e, 0x10
	.balign	8, 0
.Lfde4e:
	# 64-bit DWARF: the 0xffffffff escape, 8-byte length and CIE id.
.Lcie64:
	.long	0xffffffff
	.quad	.Lcie64e - .Lcie64b
.Lcie64b:
	.quad	0xffffffffffffffff
	.byte	3
	.asciz	""
	.uleb128 1
	.sleb128 -8
	.uleb128 16
	.byte	0x0c, 0x07, 0x08, 0x90, 0x01
	.balign	8, 0
.Lcie64e:
	.long	0xffffffff
	.quad	.Lfde64e - .Lfde64b
.Lfde64b:
	.quad	.Lcie64 - .Ldf
	.quad	personality
	.quad	1
	.byte	0x41, 0x0e, 0x10
	.balign	8, 0
.Lfde64e:
	.long	0			# zero terminator
	.long	0
