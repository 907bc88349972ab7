package network

import "math/bits"

// Hash is the ECMP hash of an entropy (the UDP source port): MurmurHash3_x86_32 of the 4-byte little-endian key
// uint32(entropy) with seed. A path is Hash(entropy, HashSeed) mod len(Paths).
//
//	k = uint32(entropy) * 0xcc9e2d51; k = rotl32(k, 15) * 0x1b873593
//	h = rotl32(seed ^ k, 13) * 5 + 0xe6546b64; h ^= 4
//	h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16
func Hash(entropy uint16, seed uint32) uint32 {
	k := uint32(entropy) * 0xcc9e2d51
	k = bits.RotateLeft32(k, 15) * 0x1b873593
	h := bits.RotateLeft32(seed^k, 13)*5 + 0xe6546b64
	h ^= 4
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// splitmix64 is output j (from 0) of the splitmix64 sequence seeded with seed: the per-path generator seeds.
func splitmix64(seed, j uint64) uint64 {
	z := seed + (j+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
