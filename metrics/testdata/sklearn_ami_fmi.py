# Reference values of metrics/adjusted_test.go: run with Debian's python3-sklearn
# (scikit-learn 1.2.1): /usr/bin/python3 metrics/testdata/sklearn_ami_fmi.py
from sklearn.metrics import adjusted_mutual_info_score as ami, fowlkes_mallows_score as fmi
cases = {
 "luo": ([0,0,0,0,0,1,1,2,2,2,2,2], [0,0,0,0,0,1,1,1,1,1,1,1]),
 "swapped": ([0,0,1,1], [1,1,0,0]),
 "one vs singletons": ([0,0,0,0], [0,1,2,3]),
 "both one": ([0,0,0], [5,5,5]),
 "crossed": ([0,0,1,1], [0,1,0,1]),
 "singletons": ([0,1,2,3,4], [4,3,2,1,0]),
 "small": ([0,0,0,1], [0,0,1,1]),
 "mod 200": ([(i*7)%4 for i in range(200)], [(i*i+3*i)%5 for i in range(200)]),
 "skewed 300": ([0 if i<150 else i%3+1 for i in range(300)], [1 if (i*13)%7<3 else 0 for i in range(300)]),
 "mod 1000": ([i%10 for i in range(1000)], [(i*31+i//7)%12 for i in range(1000)]),
 "noisy 500": ([i//100 for i in range(500)], [(i//100 if (i*17)%10 else (i*3)%5) for i in range(500)]),
}
for k,(t,p) in cases.items():
    print('\t\t{"%s", %r, %r},' % (k, ami(t,p), fmi(t,p)))
