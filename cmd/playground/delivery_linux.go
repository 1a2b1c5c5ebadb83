//go:build linux

package main

import (
	"encoding/binary"
	"net"
	"syscall"
	"unsafe"
)

// tcpInfoBytesAcked is the offset of tcpi_bytes_acked in Linux's struct
// tcp_info (since Linux 4.1; an older kernel returns a shorter struct).
const tcpInfoBytesAcked = 120

// ackedBytes reads how many bytes the peer of c has acknowledged (TCP_INFO),
// or is nil when c has no socket (its reads then report false when it is
// not TCP).
func ackedBytes(c net.Conn) func() (int64, bool) {
	sc, ok := c.(syscall.Conn) // a *net.TCPConn, or headerConn around one
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return func() (int64, bool) {
		var info [232]byte
		n := uint32(len(info))
		var errno syscall.Errno
		if err := raw.Control(func(fd uintptr) {
			_, _, errno = syscall.Syscall6(syscall.SYS_GETSOCKOPT, fd, syscall.IPPROTO_TCP, syscall.TCP_INFO,
				uintptr(unsafe.Pointer(&info[0])), uintptr(unsafe.Pointer(&n)), 0)
		}); err != nil || errno != 0 || n < tcpInfoBytesAcked+8 {
			return 0, false
		}
		return int64(binary.NativeEndian.Uint64(info[tcpInfoBytesAcked:])), true
	}
}
