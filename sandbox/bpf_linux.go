package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// bpfProg assembles a classic BPF program whose jumps name labels, so
// that no offset is counted by hand. A jump target "" is the next
// instruction.
type bpfProg struct {
	ins    []unix.SockFilter
	jumps  map[int][2]string
	labels map[string]int
}

func (p *bpfProg) add(f unix.SockFilter) { p.ins = append(p.ins, f) }

func (p *bpfProg) label(name string) {
	if p.labels == nil {
		p.labels = map[string]int{}
	}
	p.labels[name] = len(p.ins)
}

func (p *bpfProg) ld(off uint32) {
	p.add(unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}
func (p *bpfProg) and(k uint32) {
	p.add(unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}
func (p *bpfProg) ret(k uint32) { p.add(unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}) }

func (p *bpfProg) jump(op uint16, k uint32, jt, jf string) {
	if p.jumps == nil {
		p.jumps = map[int][2]string{}
	}
	p.jumps[len(p.ins)] = [2]string{jt, jf}
	p.add(unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (p *bpfProg) jeq(k uint32, jt, jf string)  { p.jump(unix.BPF_JEQ, k, jt, jf) }
func (p *bpfProg) jge(k uint32, jt, jf string)  { p.jump(unix.BPF_JGE, k, jt, jf) }
func (p *bpfProg) jset(k uint32, jt, jf string) { p.jump(unix.BPF_JSET, k, jt, jf) }

// assemble resolves the labels into relative offsets. A label that is
// missing, behind its jump or too far ahead is a bug in the program: the
// error says where.
func (p *bpfProg) assemble() ([]unix.SockFilter, error) {
	out := append([]unix.SockFilter(nil), p.ins...)
	var err error
	for i, t := range p.jumps {
		if out[i].Jt, err = p.offset(i, t[0]); err == nil {
			out[i].Jf, err = p.offset(i, t[1])
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p *bpfProg) offset(from int, label string) (uint8, error) {
	if label == "" {
		return 0, nil
	}
	to, ok := p.labels[label]
	d := to - from - 1
	if !ok || d < 0 || d > 255 {
		return 0, fmt.Errorf("the socket filter jumps from instruction %d to %q, which is not ahead within 255", from, label)
	}
	return uint8(d), nil
}
