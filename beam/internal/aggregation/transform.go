package aggregation

import (
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function2x2(keyByUser)
	register.DoFn3x0[userKey, func(*Record) bool, func(partitionKey, Contribution)](&boundFn{})
	register.DoFn3x0[partitionKey, func(*Contribution) bool, func(int, Row)](&noiseFn{})
	register.Iter1[Record]()
	register.Iter1[Contribution]()
	register.Emitter2[partitionKey, Contribution]()
	register.Emitter2[int, Row]()
	for _, t := range []any{Record{}, Row{}, Contribution{}, userKey{}, partitionKey{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// userKey and partitionKey key a user's and a partition's records within
// a trial.
type userKey struct {
	Trial int
	User  string
}

type partitionKey struct {
	Trial     int
	Partition string
}

// Transform applies the mechanism to records, a PCollection<KV<int,
// Record>> of records keyed by trial, and returns the released rows, a
// PCollection<KV<int, Row>> keyed by the same trials. Trial t draws its
// noise from TrialSeed(seed, t), so it releases what
// Release(TrialSeed(seed, t), its records) does.
func (a Aggregation) Transform(s beam.Scope, seed uint64, records beam.PCollection) beam.PCollection {
	s = s.Scope("aggregation")
	byUser := beam.GroupByKey(s, beam.ParDo(s, keyByUser, records))
	contributions := beam.ParDo(s, &boundFn{P: a.p, Seed: seed}, byUser)
	byPartition := beam.GroupByKey(s, contributions)
	return beam.ParDo(s, &noiseFn{P: a.p, Seed: seed}, byPartition)
}

// keyByUser keys a trial's record by its trial and user.
func keyByUser(trial int, r Record) (userKey, Record) {
	return userKey{Trial: trial, User: r.User}, r
}

// boundFn bounds one user's contribution within one trial.
type boundFn struct {
	P    Params
	Seed uint64
}

func (f *boundFn) ProcessElement(k userKey, rows func(*Record) bool, emit func(partitionKey, Contribution)) {
	var all []Record
	var r Record
	for rows(&r) {
		all = append(all, r)
	}
	for _, c := range f.P.bound(TrialSeed(f.Seed, k.Trial), k.User, all) {
		emit(partitionKey{Trial: k.Trial, Partition: c.Partition}, c)
	}
}

// noiseFn adds noise to one partition's total within one trial and
// emits the row if it passes the threshold.
type noiseFn struct {
	P    Params
	Seed uint64
}

func (f *noiseFn) ProcessElement(k partitionKey, contributions func(*Contribution) bool, emit func(int, Row)) {
	var all []Contribution
	var c Contribution
	for contributions(&c) {
		all = append(all, c)
	}
	if row, ok := f.P.noisy(TrialSeed(f.Seed, k.Trial), k.Partition, all); ok {
		emit(k.Trial, row)
	}
}
