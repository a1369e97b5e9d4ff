package store

import "sync"

// maxMachineOwners bounds machineOwners: past it, the memo starts over.
const maxMachineOwners = 1_000_000

// machineOwners remembers the machine ids this process saw bound to the
// token that reports them, so that a fleet flush checks only the ids it
// has not seen: a binding is never changed or removed, so what was once
// committed stays true for every replica.
type machineOwners struct {
	mu sync.Mutex
	m  map[machineOwner]struct{}
}

// machineOwner is a machine id and the token that owns it.
type machineOwner struct {
	team    int64
	machine string
	token   int64
}

// owns reports whether the memo knows that m's token owns its machine id.
func (o *machineOwners) owns(m MachineReport) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.m[machineOwner{m.TeamID, m.MachineID, m.TokenID}]
	return ok
}

// learn remembers bindings, once the transaction that read or made them
// has committed.
func (o *machineOwners) learn(ks []machineOwner) {
	if len(ks) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil || len(o.m)+len(ks) > maxMachineOwners {
		o.m = make(map[machineOwner]struct{}, len(ks))
	}
	for _, k := range ks {
		o.m[k] = struct{}{}
	}
}
