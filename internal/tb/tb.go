// Package tb holds the one interface by which dptest and assert mark their
// functions as test helpers.
package tb

// Helper is implemented by *testing.T, *testing.B, *testing.F and
// *rapid.T. Every exported function of dptest and assert that reports to a
// test calls it first, when t has it, so that failures point at the
// caller's line.
type Helper interface{ Helper() }
