#!/bin/bash
# ab.sh "op1 op2" secs  -- ports from /tmp/ports: base new mongoose
read B N M < /tmp/ports
for op in $1; do
  for round in 1 2; do
    for p in $B $N $M; do
      r=$(bench/scratch/load.sh $p $op ${2:-3} | awk "{print \$3}")
      echo "$op port=$p round=$round $r"
    done
  done
done
