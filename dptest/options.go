package dptest

import (
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/renyi"
)

// Defaults. A confirmation sample of a million outputs per side bounds the
// divergence of the Gaussian mechanism to within about 1.5% of its value
// (internal/experiments/figure1), and takes well under a second for a
// mechanism that costs a few hundred nanoseconds per output.
const (
	DefaultSamples      = 1_000_000
	ShortSamples        = 200_000 // with go test -short
	DefaultConfidence   = 1 - 1e-4
	DefaultCandidates   = 20 // pairs drawn from the Neighbors generator
	ShortCandidates     = 5
	MinSamples          = renyi.MinSamples
	screenFraction      = 10 // screening samples = Samples/screenFraction
	confirmedCandidates = 2  // (pair, direction) candidates confirmed
)

// Flags, in the manner of rapid's -rapid.* flags: each takes its default
// from a DPTEST_* environment variable. Explicit options win over flags.
var flags struct {
	samples    int
	seed       string
	confidence float64
	candidates int
	verbose    bool
}

func init() {
	flag.IntVar(&flags.samples, "dptest.samples", envInt("DPTEST_SAMPLES"),
		"dptest: confirming sample size per side (0: 1000000, or 200000 with -short)")
	flag.StringVar(&flags.seed, "dptest.seed", os.Getenv("DPTEST_SEED"),
		"dptest: seed of every audit, a number or \"random\" (default: derived from the test name and the claim)")
	flag.Float64Var(&flags.confidence, "dptest.confidence", envFloat("DPTEST_CONFIDENCE"),
		"dptest: confidence of a verdict, in (0, 1) (0: 0.9999)")
	flag.IntVar(&flags.candidates, "dptest.candidates", envInt("DPTEST_CANDIDATES"),
		"dptest: pairs drawn from a Neighbors generator (0: 20, or 5 with -short)")
	flag.BoolVar(&flags.verbose, "dptest.v", envBool("DPTEST_V"),
		"dptest: log screening and confirmation details")
}

func envInt(key string) int {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("dptest: invalid %s=%q: %v", key, v, err))
	}
	return n
}

func envFloat(key string) float64 {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		panic(fmt.Sprintf("dptest: invalid %s=%q: %v", key, v, err))
	}
	return f
}

func envBool(key string) bool {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		panic(fmt.Sprintf("dptest: invalid %s=%q: %v", key, v, err))
	}
	return b
}

// Option configures an audit. Options are built only by this package's
// constructors: [Samples], [Seed], [Confidence], [Pairs], [Neighbors],
// [Candidates], [Verbose], and for DP audits [Region] and [Floor].
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	samples    int
	seed       uint64
	seedSet    bool
	confidence float64
	candidates int
	candSet    bool
	verbose    bool
	pairs      []any // each a []fixtures.Pair[D]
	neighbors  any   // a *rapid.Generator[fixtures.Pair[D]]
	region     [2]float64
	floor      float64

	short bool // -short cut the sample sizes
}

// Samples sets the confirming sample size per side; screening uses a tenth
// of it. It panics below MinSamples.
func Samples(n int) Option {
	if n < MinSamples {
		panic(fmt.Sprintf("dptest: Samples must be at least %d, got %d", MinSamples, n))
	}
	return optionFunc(func(c *config) { c.samples = n })
}

// Seed fixes the seed of the audit, which determines every candidate pair
// and every output drawn; a report's Seed replays it.
func Seed(seed uint64) Option {
	return optionFunc(func(c *config) { c.seed, c.seedSet = seed, true })
}

// Confidence sets the confidence 1 − α of the verdict: a mechanism that meets
// its claim fails with probability at most α. It panics outside (0, 1).
func Confidence(conf float64) Option {
	mustConfidence(conf)
	return optionFunc(func(c *config) { c.confidence = conf })
}

func mustConfidence(conf float64) {
	if !(conf > 0 && conf < 1) {
		panic(fmt.Sprintf("dptest: confidence must lie in (0, 1), got %v", conf))
	}
}

// Pairs adds explicit candidate pairs of neighbouring datasets, screened
// before any generated ones. Both directions of each pair are audited.
func Pairs[D any](pairs ...fixtures.Pair[D]) Option {
	return optionFunc(func(c *config) { c.pairs = append(c.pairs, pairs) })
}

// Neighbors sets a rapid generator of neighbouring pairs (for example
// fixtures.Substitution or fixtures.AddRemove); [Candidates] pairs are drawn
// from it, deterministically from the audit's seed.
func Neighbors[D any](g *rapid.Generator[fixtures.Pair[D]]) Option {
	if g == nil {
		panic("dptest: Neighbors needs a non-nil generator")
	}
	return optionFunc(func(c *config) { c.neighbors = g })
}

// Candidates sets how many pairs are drawn from the Neighbors generator (or
// the default one). It panics below 0.
func Candidates(n int) Option {
	if n < 0 {
		panic(fmt.Sprintf("dptest: Candidates must be ≥ 0, got %d", n))
	}
	return optionFunc(func(c *config) { c.candidates, c.candSet = n, true })
}

// Region sets the region C of real outputs over which a DP audit searches
// for the largest privacy loss ([AKD22], eq. (21)); by default it is the
// range of the middle 99.8% of a pilot sample of both datasets. The loss
// outside C is not seen, so C should cover the outputs where a violation is
// suspected, but a region reaching far into the tails, where few outputs
// fall, makes the estimates noisy. It panics unless lo < hi, both finite.
func Region(lo, hi float64) Option {
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		panic(fmt.Sprintf("dptest: Region needs finite lo < hi, got [%v, %v]", lo, hi))
	}
	return optionFunc(func(c *config) { c.region = [2]float64{lo, hi} })
}

// Floor sets the floor τ of the truncated density estimates of a DP audit's
// screening ([AKD22], Algorithms 1–2): a probability for discrete outputs, a
// density in output units for real ones. By default it is ten samples' worth:
// 10/n for discrete outputs, 10/(n·h) for real ones with bandwidth h. It
// panics unless τ > 0.
func Floor(tau float64) Option {
	if !(tau > 0) || math.IsInf(tau, 1) {
		panic(fmt.Sprintf("dptest: Floor must be positive and finite, got %v", tau))
	}
	return optionFunc(func(c *config) { c.floor = tau })
}

// Verbose logs every screened pair and every confirmation, as -dptest.v does.
func Verbose() Option { return optionFunc(func(c *config) { c.verbose = true }) }

// resolve applies the options, then the flags (whose defaults are the
// DPTEST_* environment variables) to what the options left unset, then the
// defaults; -short cuts the default sample size and candidate count only.
func resolve(opts []Option) config {
	var c config
	for _, o := range opts {
		o.apply(&c)
	}
	if flags.samples < 0 || (flags.samples > 0 && flags.samples < MinSamples) {
		panic(fmt.Sprintf("dptest: -dptest.samples must be at least %d, got %d", MinSamples, flags.samples))
	}
	if flags.confidence != 0 {
		mustConfidence(flags.confidence)
	}
	if flags.candidates < 0 {
		panic(fmt.Sprintf("dptest: -dptest.candidates must be ≥ 0, got %d", flags.candidates))
	}
	short := isShort()
	if c.samples == 0 {
		c.samples = flags.samples
	}
	if c.samples == 0 {
		c.samples = DefaultSamples
		if short {
			c.samples, c.short = ShortSamples, true
		}
	}
	if !c.candSet {
		c.candidates = flags.candidates
	}
	if !c.candSet && c.candidates == 0 {
		c.candidates = DefaultCandidates
		if short {
			c.candidates, c.short = ShortCandidates, true
		}
	}
	if c.confidence == 0 {
		c.confidence = flags.confidence
	}
	if c.confidence == 0 {
		c.confidence = DefaultConfidence
	}
	c.verbose = c.verbose || flags.verbose
	if !c.seedSet {
		switch flags.seed {
		case "":
		case "random":
			var b [8]byte
			if _, err := rand.Read(b[:]); err != nil {
				panic("dptest: cannot draw a random seed: " + err.Error())
			}
			c.seed, c.seedSet = binary.LittleEndian.Uint64(b[:]), true
		default:
			s, err := strconv.ParseUint(flags.seed, 10, 64)
			if err != nil {
				panic(fmt.Sprintf("dptest: -dptest.seed must be a number or random, got %q", flags.seed))
			}
			c.seed, c.seedSet = s, true
		}
	}
	return c
}

// isShort reports whether this is a test binary run with -short.
func isShort() bool {
	return testing.Testing() && flag.Parsed() && testing.Short()
}
