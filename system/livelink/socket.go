package livelink

import (
	"fmt"
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// Link carries whole Ethernet frames.
type Link interface {
	// Send transmits one frame.
	Send(frame []byte) error
	// Recv waits up to timeout for frames and returns those that arrived (none on timeout).
	Recv(timeout time.Duration) ([][]byte, error)
}

// DropCounter is a Link that counts the frames it lost before they were read (a full receive buffer).
type DropCounter interface {
	// Drops returns the frames lost since the previous call.
	Drops() (int, error)
}

// Socket is an AF_PACKET socket bound to one interface: it reads every frame the interface receives (not those
// the host sends on it) and writes frames out of it as they are.
type Socket struct {
	fd    int
	iface *net.Interface
	buf   []byte
	// RcvBuf is the receive buffer the kernel granted, in bytes, as getsockopt(SO_RCVBUF) reads it (the kernel
	// doubles the requested size for its bookkeeping).
	RcvBuf int
}

// RcvBufRequest is the receive buffer asked for, in bytes: a 1 MiB message is 1024 frames arriving in a burst.
const RcvBufRequest = 8 << 20

// htons converts a 16-bit protocol number to network order.
func htons(v uint16) uint16 { return v<<8 | v>>8 }

// Open binds a packet socket to the interface name. It needs CAP_NET_RAW (root).
func Open(name string) (*Socket, error) {
	ifi, err := net.InterfaceByName(name)
	if err != nil {
		return nil, fmt.Errorf("interface %s: %w", name, err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, int(htons(unix.ETH_P_ALL)))
	if err != nil {
		return nil, fmt.Errorf("AF_PACKET socket (needs root): %w", err)
	}
	sa := &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}
	if err := unix.Bind(fd, sa); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("bind AF_PACKET to %s: %w", name, err)
	}
	// SO_RCVBUFFORCE (CAP_NET_ADMIN) is not capped by net.core.rmem_max; SO_RCVBUF is, silently
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, RcvBufRequest); err != nil {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, RcvBufRequest); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("SO_RCVBUF %d on %s: %w", RcvBufRequest, name, err)
		}
	}
	got, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("reading SO_RCVBUF on %s: %w", name, err)
	}
	s := &Socket{fd: fd, iface: ifi, buf: make([]byte, 65536), RcvBuf: got}
	// PACKET_STATISTICS counts from the socket's creation: start from 0 here
	if _, err := s.Drops(); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("PACKET_STATISTICS on %s: %w", name, err)
	}
	return s, nil
}

// Drops returns the frames the kernel dropped for this socket (its receive buffer full) since the previous call:
// PACKET_STATISTICS' tp_drops, which the kernel resets on each read.
func (s *Socket) Drops() (int, error) {
	st, err := unix.GetsockoptTpacketStats(s.fd, unix.SOL_PACKET, unix.PACKET_STATISTICS)
	if err != nil {
		return 0, err
	}
	return int(st.Drops), nil
}

// Close closes the socket.
func (s *Socket) Close() error { return unix.Close(s.fd) }

// Send writes one frame out of the interface.
func (s *Socket) Send(frame []byte) error {
	sa := &unix.SockaddrLinklayer{Ifindex: s.iface.Index, Halen: 6}
	copy(sa.Addr[:], frame[:6])
	return unix.Sendto(s.fd, frame, 0, sa)
}

// Recv waits up to timeout for the socket to be readable, then reads every queued frame the interface received;
// frames the host itself sent on the interface (PACKET_OUTGOING) are skipped.
func (s *Socket) Recv(timeout time.Duration) ([][]byte, error) {
	ms := int(timeout / time.Millisecond)
	if timeout > 0 && ms == 0 {
		ms = 1
	}
	fds := []unix.PollFd{{Fd: int32(s.fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(fds, ms); err != nil && err != unix.EINTR {
		return nil, err
	}
	var out [][]byte
	for len(out) < 4096 {
		n, from, err := unix.Recvfrom(s.fd, s.buf, unix.MSG_DONTWAIT)
		if err == unix.EAGAIN || err == unix.EINTR {
			break
		}
		if err != nil {
			return out, err
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); ok && ll.Pkttype == unix.PACKET_OUTGOING {
			continue
		}
		out = append(out, append([]byte(nil), s.buf[:n]...))
	}
	return out, nil
}
