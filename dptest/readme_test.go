package dptest_test

// The README's examples, verbatim: each must run as a test. Fixed seeds
// (derived from each test's name and claim); the claims are correct, so
// each fails with probability at most 10⁻⁴.

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
)

func TestNoisySum(t *testing.T) {
	mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v // records in [0, 1]: sensitivity 1
		}
		return s + 3*r.NormFloat64()
	})
	dptest.RequireRDP(t, mech, 2, 2.0/(2*9)) // (λ=2, ε=1/9)-Rényi DP
}

func TestLaplaceMechanism(t *testing.T) {
	mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s + r.ExpFloat64()*float64(1-2*r.IntN(2)) // Laplace(1): ε = 1
	})
	dptest.RequireDP(t, mech, 1)
}

func TestGaussianMechanism(t *testing.T) {
	mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s + 0.5*r.NormFloat64() // σ = 0.5: μ = Δ/σ = 2
	})
	dptest.RequireGDP(t, mech, 2)
	dptest.RequireApproxDP(t, mech, 1, 0.5099) // its exact δ(1)
}

type Person struct {
	Age    int
	Salary float64
}

func TestClampedSalarySum(t *testing.T) {
	person := rapid.Custom(func(t *rapid.T) Person {
		return Person{
			Age:    rapid.IntRange(18, 90).Draw(t, "age"),
			Salary: rapid.Float64Range(0, 200_000).Draw(t, "salary"),
		}
	})
	mech := dptest.Continuous(func(r *rand.Rand, people []Person) float64 {
		s := 0.0
		for _, p := range people {
			s += min(p.Salary, 100_000) // clamped: sensitivity 100,000
		}
		return s + 100_000*r.ExpFloat64()*float64(1-2*r.IntN(2)) // ε = 1
	}).WithNeighbors(fixtures.Substitution(person, 1, 20))
	dptest.RequireDP(t, mech, 1)
}

// Every Go block of the README is in this file verbatim, so each runs as
// a test: a block edited in the README and not here fails this test.
func TestREADMEBlocksAreTested(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	self, err := os.ReadFile("readme_test.go")
	require.NoError(t, err)
	blocks := strings.Split(string(readme), "```go\n")[1:]
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		code := b[:strings.Index(b, "```")]
		require.Contains(t, string(self), code, "a README block missing from readme_test.go")
	}
}
