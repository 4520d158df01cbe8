#!/usr/bin/env bash
# Write modfiles/<release>.mod for one Kubernetes release: our module requires
# k8s.io/kubernetes at that tag and pins every k8s.io staging module it names
# (v0.0.0 with a ./staging replace in its own go.mod) to the matching v0.X.Y.
# usage: modfiles/new.sh 1.37 v1.37.2   (then: go mod tidy -modfile=modfiles/1.37.mod)
set -euo pipefail
cd "$(dirname "$0")/.."
release=$1 version=$2
staging=v0.${version#v1.}
upstream_mod=$(go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
go_line=$(grep -m1 '^go ' "$upstream_mod")
{
    echo "module draplayground/upstream"
    echo
    echo "$go_line"
    echo
    echo "require k8s.io/kubernetes $version"
    echo
    echo "replace ("
    sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\t\1 => \1 '"$staging"'#p' "$upstream_mod"
    echo ")"
} > "modfiles/$release.mod"
touch "modfiles/$release.sum"
