// Package nictransport is the cycle-accurate model of one transport endpoint (docs/nic_transport.md): the golden
// models of retx, path_sel and rx_reorder joined by the glue the document specifies (decision slots, go-back-N
// receive filter, ACK merge). It is the golden twin of rtl/nic_transport.v (named after it) and the endpoint of
// the end-to-end system simulation.
package nictransport
