package verdict

import (
	"math"
	"strconv"
	"strings"
)

// Num prints a number with four significant digits.
func Num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// Thousands prints n with comma separators: 1,000,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Roughly prints v rounded to two significant digits, with separators;
// values beyond an int64 print as Num does.
func Roughly(v float64) string {
	if v >= math.MaxInt64/2 {
		return Num(v)
	}
	e := math.Pow(10, math.Max(math.Floor(math.Log10(v))-1, 0))
	return Thousands(int(math.Round(v/e) * e))
}
