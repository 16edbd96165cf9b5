// Package designcheck holds no code: its test holds docs/design.md's
// package graph against the imports of the packages as they are, so that
// the picture a new maintainer reads first cannot drift from the code.
package designcheck
