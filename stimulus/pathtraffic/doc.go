// Package pathtraffic is seeded stimulus for the path_sel block: a sender that asks for paths (new packets and
// retransmissions), and a network of links onto which entropies are hashed (ECMP), with congestion (ECN), random
// loss, links that die and heal, and the feedback the retransmit engine would give: delivered, ECN, loss, timeout.
package pathtraffic
