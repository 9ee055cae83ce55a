package stat

import (
	"fmt"
	"slices"
)

// EventKind says what an [Event] is.
type EventKind int

const (
	// ValueSet is a set of values of a discrete output.
	ValueSet EventKind = iota
	// Atom is one value of a real output that the output repeats.
	Atom
	// Interval is a range of a real output, atoms excluded.
	Interval
)

// Event is a set of outputs chosen on a screening sample, whose
// probabilities under the two datasets a confirmation estimates from fresh
// draws ([Counts]). Any event gives a valid bound: it is fixed before the
// draws that count it.
type Event struct {
	Kind    EventKind
	Members []any     // for ValueSet: the values of a discrete output it holds
	Atom    float64   // for Atom
	Lo, Hi  float64   // for Interval, output units
	Exclude []float64 // sorted atoms left out of an Interval
	// Location is where the event's evidence peaks: the value of a discrete
	// output (ValueSet) or the output t̂ (Atom, Interval).
	Location any
}

// Contains reports whether a real output lies in an Atom or Interval event.
func (e Event) Contains(v float64) bool {
	switch e.Kind {
	case Atom:
		return v == e.Atom
	case Interval:
		if v < e.Lo || v > e.Hi {
			return false
		}
		_, isAtom := slices.BinarySearch(e.Exclude, v)
		return !isAtom
	}
	return false
}

// Counts is the statistic of a confirmation that counts events: In[j] of
// the N outputs added lay in event j. It merges by addition.
type Counts[O comparable] struct {
	In  []int64
	N   int64
	has []func(O) bool
}

// NewCounts compiles the events for outputs of type O: a ValueSet event into
// a set of O, an Atom or Interval event into a predicate on real outputs
// (which needs O = float64). An event that cannot hold outputs of type O is
// an error.
func NewCounts[O comparable](events []Event) (func() *Counts[O], error) {
	has := make([]func(O) bool, len(events))
	for j, e := range events {
		if e.Kind == ValueSet {
			set := make(map[O]struct{}, len(e.Members))
			for _, m := range e.Members {
				v, ok := m.(O)
				if !ok {
					return nil, fmt.Errorf("stat: event value %v (%T) is not an output of this mechanism", m, m)
				}
				set[v] = struct{}{}
			}
			has[j] = func(v O) bool { _, ok := set[v]; return ok }
			continue
		}
		f, ok := any(e.Contains).(func(O) bool)
		if !ok {
			return nil, fmt.Errorf("stat: a range of real outputs cannot hold outputs of type %T", *new(O))
		}
		has[j] = f
	}
	return func() *Counts[O] { return &Counts[O]{In: make([]int64, len(events)), has: has} }, nil
}

// Add counts one output.
func (c *Counts[O]) Add(v O) {
	c.N++
	for j, h := range c.has {
		if h(v) {
			c.In[j]++
		}
	}
}

// Merge adds the counts of o.
func (c *Counts[O]) Merge(o *Counts[O]) {
	c.N += o.N
	for j, v := range o.In {
		c.In[j] += v
	}
}
