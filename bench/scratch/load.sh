#!/bin/bash
# usage: load.sh port opname seconds -> prints requests/s
PORT=$1; OP=$2; SECS=${3:-5}
case $OP in
 books) Q='{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }';;
 people) Q='{ people(first: 100) { firstName holdings { numberHeld stock { symbol open } } tasks { description owner { lastName } } } }';;
 hosts) Q='{ hosts(first: 20) { name logs(first: 5) { message time } } }';;
 posts) Q='{ posts(first: 10) { title recentComments { author comment } } }';;
 authors) Q='{ authors(first: 50) { name books { name publisher { name books(first: 3) { name } } } } }';;
esac
BODY=$(node -e 'console.log(JSON.stringify({query: process.argv[1]}))' "$Q")
npx autocannon -j -c 16 -d $SECS -m POST -H 'content-type: application/json' -b "$BODY" http://127.0.0.1:$PORT/graphql 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log("requests in",(j.requests.total/j.duration).toFixed(1),"non2xx",j.non2xx)})'
