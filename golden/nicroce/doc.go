// Package nicroce is the cycle-accurate Go twin of rtl/nic_roce.v, the frame-level NIC top (docs/nic_roce.md,
// structure in docs/nic_roce_rtl.md): one struct per unit of the structure, with nictransport.Top and the CSR
// twin nicrocecsr inside. roce_rx and roce_tx have no cycle twins: their outputs are inputs of Top and what the
// top drives into them are outputs (the Rx and Tx port fields).
package nicroce
