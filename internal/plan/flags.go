package plan

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
)

// The command line: in the manner of rapid's -rapid.* flags, each flag
// takes its default from a DPTEST_* environment variable. A flag value is
// checked when the flag is parsed, so a bad one stops the test binary with
// a one-line message naming it; a bad environment value is reported by the
// first audit (the environment is read before flags are parsed, in init).
// go test -h shows each flag's real default.
var commandLine cmdline

type cmdline struct {
	samples    intFlag
	candidates intFlag
	confidence floatFlag
	seed       seedFlag
	verbose    boolFlag
	quick      boolFlag
	strict     boolFlag
	report     stringFlag
	nightly    boolFlag
}

func init() {
	cl := &commandLine
	cl.samples = intFlag{def: DefaultSamples, min: MinSamples}
	cl.candidates = intFlag{def: DefaultCandidates, min: 0}
	cl.confidence = floatFlag{def: DefaultConfidence}
	register(&cl.samples, "samples", "DPTEST_SAMPLES",
		fmt.Sprintf("dptest: confirming sample size `n` per side, at least %d (%d with -short)", MinSamples, ShortSamples))
	register(&cl.seed, "seed", "DPTEST_SEED",
		"dptest: `seed` of every audit, a number or \"random\" (default: derived from the test name and the claim)")
	register(&cl.confidence, "confidence", "DPTEST_CONFIDENCE",
		"dptest: `confidence` of a verdict, in (0, 1)")
	register(&cl.candidates, "candidates", "DPTEST_CANDIDATES",
		fmt.Sprintf("dptest: `number` of pairs drawn from a generator of neighbours (%d with -short)", ShortCandidates))
	register(&cl.verbose, "v", "DPTEST_V", "dptest: log screening and confirmation details")
	register(&cl.strict, "strict", "DPTEST_STRICT",
		"dptest: fail, rather than skip, an audit whose sample cannot reach the claim's scale (unresolved)")
	register(&cl.report, "report", "DPTEST_REPORT",
		"dptest: write every audit's page, with pictures, an index.html and report.json into `directory` (a relative one from the module's root)")
	register(&cl.nightly, "nightly", "DPTEST_NIGHTLY",
		"dptest: audit at full depth: screen every pair in full, and stop early only on a violation")
	register(&cl.quick, "quick", "DPTEST_QUICK",
		"dptest: decide claims far from the truth at a quick look first (a screening an eighth the size: it sees rare outputs less well)")
}

// origin is where a flag's value came from: the flag (Set by the flag
// package), its DPTEST_* variable (read in init), or neither; and the error
// of a bad variable, which a valid flag value overrides.
type origin struct {
	flag, from string
	envErr     error
}

func (o *origin) set()          { o.from, o.envErr = o.flag, nil }
func (o *origin) get() *origin  { return o }
func (o *origin) isSet() bool   { return o.from != "" }
func (o *origin) where() string { return o.from }

// value is a flag.Value with an origin.
type value interface {
	flag.Value
	get() *origin
}

func register(v value, name, env, usage string) {
	o := v.get()
	o.flag = "-dptest." + name
	if s, ok := os.LookupEnv(env); ok && s != "" {
		if err := v.Set(s); err != nil {
			o.envErr = fmt.Errorf("dptest: invalid %s=%q: %v", env, s, err)
		} else {
			o.from = env
		}
	}
	flag.Var(v, "dptest."+name, usage)
}

// err returns the invalid environment values no flag overrode, if any.
func (cl *cmdline) err() error {
	return errors.Join(cl.samples.envErr, cl.candidates.envErr, cl.confidence.envErr, cl.seed.envErr, cl.verbose.envErr, cl.quick.envErr, cl.strict.envErr, cl.report.envErr, cl.nightly.envErr)
}

// intFlag is a whole number at least min; String shows the default def
// until it is set.
type intFlag struct {
	origin
	value, def, min int
}

func (f *intFlag) String() string {
	switch {
	case f == nil:
		return "0"
	case !f.isSet():
		return strconv.Itoa(f.def)
	}
	return strconv.Itoa(f.value)
}

func (f *intFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	if n < f.min {
		return fmt.Errorf("must be at least %d, got %d", f.min, n)
	}
	f.value = n
	f.origin.set()
	return nil
}

// floatFlag is a confidence in (0, 1); String shows the default def
// until it is set.
type floatFlag struct {
	origin
	value, def float64
}

func (f *floatFlag) String() string {
	switch {
	case f == nil:
		return "0"
	case !f.isSet():
		return strconv.FormatFloat(f.def, 'g', -1, 64)
	}
	return strconv.FormatFloat(f.value, 'g', -1, 64)
}

func (f *floatFlag) Set(s string) error {
	c, err := strconv.ParseFloat(s, 64)
	if err != nil || !(c > 0 && c < 1) {
		return fmt.Errorf("must be a number in (0, 1), got %q", s)
	}
	f.value = c
	f.origin.set()
	return nil
}

// seedFlag is a number or "random".
type seedFlag struct {
	origin
	value  uint64
	random bool
}

func (f *seedFlag) String() string {
	switch {
	case f == nil || !f.isSet():
		return ""
	case f.random:
		return "random"
	}
	return strconv.FormatUint(f.value, 10)
}

func (f *seedFlag) Set(s string) error {
	if s == "random" {
		f.random = true
		f.origin.set()
		return nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("must be a number or random, got %q", s)
	}
	f.value, f.random = n, false
	f.origin.set()
	return nil
}

// boolFlag is a switch.
type boolFlag struct {
	origin
	value bool
}

func (f *boolFlag) String() string {
	if f == nil || !f.value {
		return "false"
	}
	return "true"
}

func (f *boolFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("must be true or false, got %q", s)
	}
	f.value = b
	f.origin.set()
	return nil
}

func (f *boolFlag) IsBoolFlag() bool { return true }

// stringFlag is a directory name; empty until set.
type stringFlag struct {
	origin
	value string
}

func (f *stringFlag) String() string {
	if f == nil {
		return ""
	}
	return f.value
}

func (f *stringFlag) Set(s string) error {
	if s == "" {
		return fmt.Errorf("needs a directory")
	}
	f.value = s
	f.origin.set()
	return nil
}

// ReportDir returns the report directory of the command line
// (-dptest.report or DPTEST_REPORT), or "" for none.
func ReportDir() string { return commandLine.report.value }
