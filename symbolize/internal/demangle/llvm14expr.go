// sanitrace change: this file is not in upstream.

package demangle

import "strings"

// LLVM 14's Itanium demangler (llvm/Demangle/ItaniumDemangle.h, the one in
// llvm-symbolizer 14 and llvm-cxxfilt 14) prints expressions without any
// notion of precedence: every operand of a prefix, postfix, binary,
// conditional or subscript expression is parenthesised, and sizeof, alignof,
// typeid and noexcept are followed by " (". Later LLVMs, which upstream's
// LLVMStyle follows, parenthesise by precedence. The functions here print
// the LLVM 14 way; they are called only in LLVMStyle.

// printLLVM14Unary prints u as LLVM 14's PrefixExpr, PostfixExpr,
// EnclosingExpr, ConversionExpr, DeleteExpr or ThrowExpr would. It reports
// false for the forms it leaves to the generic printer.
func printLLVM14Unary(ps *printState, u *Unary) bool {
	if c, ok := u.Op.(*Cast); ok {
		// ConversionExpr: "(" type ")(" expressions ")".
		ps.startScope('(')
		ps.print(c.To)
		ps.endScope(')')
		ps.startScope('(')
		ps.print(u.Expr)
		ps.endScope(')')
		return true
	}
	op, ok := u.Op.(*Operator)
	if !ok {
		return false
	}
	if u.SizeofType {
		ps.writeString("sizeof (")
		ps.print(u.Expr)
		ps.writeByte(')')
		return true
	}
	switch op.Name {
	case "sizeof ", "alignof ", "typeid ", "noexcept":
		ps.writeString(strings.TrimSuffix(op.Name, " "))
		ps.writeString(" (")
		ps.print(u.Expr)
		ps.writeByte(')')
		return true
	case "delete ", "delete[] ":
		// DeleteExpr writes no space after a non-array "delete".
		ps.writeString(strings.TrimSuffix(op.Name, " "))
		if op.Name == "delete[] " {
			ps.writeByte(' ')
		}
		ps.print(u.Expr)
		return true
	case "throw ":
		ps.writeString(op.Name)
		ps.print(u.Expr)
		return true
	case "&", "*", "-", "!", "~", "+", "++", "--":
		if u.Suffix {
			ps.startScope('(')
			ps.print(u.Expr)
			ps.endScope(')')
			ps.writeString(op.Name)
			return true
		}
		ps.writeString(op.Name)
		ps.startScope('(')
		ps.print(u.Expr)
		ps.endScope(')')
		return true
	}
	return false
}

// printLLVM14Binary prints b as LLVM 14's BinaryExpr, MemberExpr,
// ArraySubscriptExpr, CastExpr or CallExpr would. It reports false for the
// forms it leaves to the generic printer (designated initialisers).
func printLLVM14Binary(ps *printState, b *Binary) bool {
	op, ok := b.Op.(*Operator)
	if !ok || isDesignatedInitializer(b) {
		return false
	}
	switch op.Name {
	case "const_cast", "dynamic_cast", "reinterpret_cast", "static_cast":
		ps.writeString(op.Name)
		scopes := ps.scopes
		ps.scopes = 0
		ps.writeByte('<')
		ps.print(b.Left)
		ps.writeByte('>')
		ps.scopes = scopes
		ps.startScope('(')
		ps.print(b.Right)
		ps.endScope(')')
		return true
	case "()":
		ps.print(b.Left)
		ps.startScope('(')
		ps.print(b.Right)
		ps.endScope(')')
		return true
	case ".", "->", ".*":
		ps.print(b.Left)
		ps.writeString(op.Name)
		ps.print(b.Right)
		return true
	case "[]":
		ps.startScope('(')
		ps.print(b.Left)
		ps.endScope(')')
		ps.writeByte('[')
		ps.print(b.Right)
		ps.writeByte(']')
		return true
	case "() ":
		return false
	}
	if op.Name == ">" {
		ps.startScope('(')
	}
	ps.startScope('(')
	ps.print(b.Left)
	ps.endScope(')')
	ps.writeByte(' ')
	ps.writeString(op.Name)
	ps.writeString(" (")
	ps.scopes++
	ps.print(b.Right)
	ps.endScope(')')
	if op.Name == ">" {
		ps.endScope(')')
	}
	return true
}

// printLLVM14Trinary prints a conditional expression as LLVM 14's
// ConditionalExpr: "(c) ? (a) : (b)".
func printLLVM14Trinary(ps *printState, t *Trinary) bool {
	if op, ok := t.Op.(*Operator); !ok || op.Name != "?" {
		return false
	}
	ps.startScope('(')
	ps.print(t.First)
	ps.endScope(')')
	ps.writeString(" ? (")
	ps.scopes++
	ps.print(t.Second)
	ps.endScope(')')
	ps.writeString(" : (")
	ps.scopes++
	ps.print(t.Third)
	ps.endScope(')')
	return true
}
