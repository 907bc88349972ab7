// Package nicrocecsr is the cycle-accurate golden model of rtl/nic_roce_csr.v, per docs/nic_roce_csr.md: the
// AXI4-Lite slave of nic_roce. Addresses, masks, resets and legal values come from package regmap, not from
// copied constants.
package nicrocecsr
