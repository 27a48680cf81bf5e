// Package pkg is the root of the shared packages of the document suite.
package pkg
