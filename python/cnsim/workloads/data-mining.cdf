# Data-mining flow sizes: Greenberg et al., "VL2: A Scalable and Flexible Data Center Network",
# SIGCOMM 2009, Fig. 2 (flow size distribution), as used by pFabric (Alizadeh et al., SIGCOMM 2013,
# Fig. 4b). The points below are those of the VL2_CDF table in
# github.com/datacenter/empirical-traffic-gen, the tabulation the community simulates with.
# Format (cnsim): "size_bytes cumulative_probability" per line, both non-decreasing, the last
# probability 1. Between points the CDF is linear in the size; mean 12.7 MB, heavy-tailed (up to 1 GB).
0 0
180 0.1
216 0.2
560 0.3
900 0.4
1100 0.5
1870 0.6
3160 0.7
10000 0.8
400000 0.9
3160000 0.95
100000000 0.98
1000000000 1
