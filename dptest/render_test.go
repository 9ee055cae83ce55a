package dptest_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// maxFailureLines is the most lines a violated or suspect text takes.
const maxFailureLines = 12

// A survey with long field names, for a witness printed with them.
type surveyAnswers struct {
	HouseholdIncomeBracket, YearsAtCurrentAddress int
}

// Each verdict renders as the contract says: a holds line of at most
// MaxHoldsLine characters naming the pairs searched; a violated text of
// at most maxFailureLines lines whose struct witness prints field names;
// an unresolved line with what would resolve it; a suspect text with its
// remedy.
func TestVerdictTexts(t *testing.T) {
	t.Parallel()
	small := []dptest.Option{dptest.Samples(50_000), dptest.Candidates(2), dptest.Seed(1)}
	g := mechanisms.Gaussian{Sigma: 5}
	holds, err := dptest.AuditRDP(dptest.Continuous(g.Sample), 2, g.RDP(2), small...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, holds.Verdict)
	line := holds.String()
	require.LessOrEqual(t, utf8.RuneCountInString(line), dptest.MaxHoldsLine, line)
	require.NotContains(t, line, "\n")
	require.Equal(t, "substitution pairs in [0, 1]^10", holds.Details.Searched)
	require.True(t, strings.HasPrefix(line, "[dptest] (λ=2, ε=0.04)-RDP holds on "+holds.Details.Searched+": "), line)

	// Pairs of structs whose type name is long: the domain is shortened
	// to fit the line.
	survey := dptest.Continuous(func(r *rand.Rand, d []surveyAnswers) float64 {
		return float64(d[0].HouseholdIncomeBracket) + 5*r.NormFloat64()
	})
	pairs := make([]fixtures.Pair[[]surveyAnswers], 30)
	for i := range pairs {
		pairs[i] = fixtures.Pair[[]surveyAnswers]{X: []surveyAnswers{{i % 2, i}}, Y: []surveyAnswers{{0, i}}}
	}
	rep, err := dptest.AuditRDP(survey.WithPairs(pairs...), 2, 0.04, small...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict)
	require.LessOrEqual(t, utf8.RuneCountInString(rep.String()), dptest.MaxHoldsLine, rep.String())

	rep, err = dptest.AuditRDP(survey.WithPairs(pairs...), 2, 0.01, small...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict)
	text := rep.String()
	require.LessOrEqual(t, strings.Count(text, "\n")+1, maxFailureLines, text)
	require.Contains(t, text, "HouseholdIncomeBracket:1", "a struct witness prints its field names")

	unresolved, err := dptest.AuditRDP(dptest.Continuous(g.Sample), 64, g.RDP(64), small...)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	require.Equal(t, dptest.Unresolved, unresolved.Verdict)
	require.Equal(t, unresolved.Reason, errors.Unwrap(err))
	lines := strings.Split(unresolved.String(), "\n")
	require.Len(t, lines, 2, "what was verified, and what would resolve it")
	require.Contains(t, lines[0], unresolved.Reason.Text())
	require.Contains(t, lines[1], unresolved.Reason.Remedy())

	ids := dptest.Discrete(func(r *rand.Rand, x []float64) string { return fmt.Sprint(r.Uint64()) })
	suspect, err := dptest.AuditDP(ids, 1, small...)
	var blind *dptest.BlindOutputs
	require.ErrorAs(t, err, &blind)
	require.Equal(t, dptest.Suspect, suspect.Verdict)
	text = suspect.String()
	require.LessOrEqual(t, strings.Count(text, "\n")+1, maxFailureLines, text)
	require.Contains(t, text, blind.Remedy())
}

// An unresolved audit skips a Require* test and lets a Check* test go on;
// Strict makes it fail both. A suspect audit fails either form.
func TestUnresolvedSkipsAndStrictFails(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 5}
	m := dptest.Continuous(g.Sample)
	small := []dptest.Option{dptest.Samples(50_000), dptest.Candidates(2), dptest.Seed(1)}
	for _, strict := range []bool{false, true} {
		o := small
		if strict {
			o = append(append([]dptest.Option{}, small...), dptest.Strict())
		}
		sr := &skipRecorder{recorder: &recorder{name: "TestUnresolved"}}
		run("TestUnresolved", func(*recorder) { dptest.RequireRDP(sr, m, 64, g.RDP(64), o...) })
		require.Equal(t, !strict, sr.skipped, "strict %v", strict)
		require.Equal(t, strict, sr.failed, "strict %v", strict)
		r := run("TestUnresolved", func(rt *recorder) {
			require.Equal(t, !strict, dptest.CheckRDP(rt, m, 64, g.RDP(64), o...))
		})
		require.Equal(t, strict, len(r.errors) == 1, "strict %v", strict)
	}
	ids := dptest.Discrete(func(r *rand.Rand, x []float64) string { return fmt.Sprint(r.Uint64()) })
	r := run("TestSuspect", func(rt *recorder) { require.False(t, dptest.CheckDP(rt, ids, 1, small...)) })
	require.Len(t, r.errors, 1)
}
