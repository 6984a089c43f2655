#!/usr/bin/env bash
# scripts/pgbuild.sh MAJOR... -- build PostgreSQL MAJOR (17, 18) from Debian's
# source package into a cache directory outside the clone, once.
#
# PostgreSQL 17 and 18 are not in bookworm; their Debian source packages are
# fetched with `apt-get source --download-only` through a PRIVATE apt
# configuration (a sources list of deb-src lines for newer suites, own lists,
# cache and archives dirs under $BLOOMSET_PG_CACHE/apt).  /etc/apt is never
# touched.  The upstream tarball of the package (*.orig.tar.*) is built with
# ICU and TAP tests, no readline/docs/llvm, and installed with pg_regress, the
# isolation tester, the TAP perl modules and postgres_fdw so that PGXS, installcheck and
# the TAP and isolation tests (make installcheck) work against it.
#
# Layout: $BLOOMSET_PG_CACHE/<major>-<version>/ holds the install and a stamp
# file (.bloomset-build) recording the exact Debian source version and the
# build flags; $BLOOMSET_PG_CACHE/<major> is a symlink to the current one.
# An install whose stamp matches the newest version in the archive is reused;
# it is rebuilt only when missing or when the version changed.  Without
# network (apt-get update fails) an existing install is reused as it is.
#
# Env: BLOOMSET_PG_CACHE (default /var/cache/bloomset-pg), PGBUILD_JOBS (2).
# Prints "pgbuild MAJOR: PREFIX (reused|built in Ns)" per version.
source "$(dirname "$0")/lib.sh"

CACHE=${BLOOMSET_PG_CACHE:-/var/cache/bloomset-pg}
JOBS=${PGBUILD_JOBS:-2}
APTDIR=$CACHE/apt
# bumped when the configure flags or the installed parts change
BUILD_FLAGS="--with-icu --enable-tap-tests --without-readline --without-llvm +isolation +perl +postgres_fdw r2"

[ $# -gt 0 ] || { echo "usage: $0 MAJOR..." >&2; exit 2; }

as_root mkdir -p "$CACHE" "$APTDIR/lists/partial" "$APTDIR/archives/partial" "$APTDIR/cache" "$CACHE/src"

# deb-src lines for the suites that carry postgresql-17 (trixie) and
# postgresql-18 (forky / sid); signed by the archive keys bookworm ships.
cat > "$APTDIR/sources.list" <<'EOF'
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-updates main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security trixie-security main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian forky main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main
EOF

APT_OPTS=(
	-o "Dir::Etc::sourcelist=$APTDIR/sources.list"
	-o "Dir::Etc::sourceparts=-"
	-o "Dir::State::Lists=$APTDIR/lists"
	-o "Dir::Cache=$APTDIR/cache"
	-o "Dir::Cache::archives=$APTDIR/archives"
	-o "APT::Get::List-Cleanup=1"
	-o "Acquire::Languages=none"
	-o "Acquire::IndexTargets::deb::Packages::DefaultEnabled=false"
)

# what the build needs from Debian (bookworm)
ensure_packages "${PGBUILD_PACKAGES[@]}"

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return "$apt_updated"
	if as_root apt-get "${APT_OPTS[@]}" -qq update >"$APTDIR/update.log" 2>&1; then
		apt_updated=0
	else
		echo "pgbuild: apt-get update (private sources) failed; see $APTDIR/update.log" >&2
		apt_updated=1
	fi
	return "$apt_updated"
}

# newest Debian source version of package $1 in the private sources
newest_version() {
	local v best=
	for v in $(apt-cache "${APT_OPTS[@]}" showsrc --only-source "$1" 2>/dev/null |
			sed -n 's/^Version: //p'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done
	echo "$best"
}

# download_src PKG VERSION DIR: apt-get source --download-only.  apt takes
# the first index that lists the version; when that mirror path does not
# hold the files (a security update listed by both trixie and
# trixie-security), retry through each deb-src line on its own.
download_src() {
	local pkg=$1 ver=$2 dir=$3 one line n=0
	chown _apt "$dir" 2>/dev/null || true	# apt downloads as _apt
	( cd "$dir" && as_root apt-get "${APT_OPTS[@]}" -qq source --download-only "$pkg=$ver" ) \
		> "$dir.download.log" 2>&1 && return 0
	while read -r line; do
		n=$((n + 1)); one=$APTDIR/sources.one.$n
		echo "$line" > "$one"
		( cd "$dir" && as_root apt-get "${APT_OPTS[@]}" -o "Dir::Etc::sourcelist=$one" \
			-qq source --download-only "$pkg=$ver" ) >> "$dir.download.log" 2>&1 && return 0
	done < "$APTDIR/sources.list"
	return 1
}

# Known-good versions (built and tested here), used when the newest version
# listed by the indices cannot be downloaded (a mirror that does not carry
# it yet).  Fetched from the pool directly; the .dsc must carry a good
# signature of a Debian developer (debian-keyring) and the files must match
# its SHA-256 sums.
declare -A FALLBACK=([17]=17.11-0+deb13u1 [18]=18.6-3)

# download_pool PKG VERSION DIR
download_pool() {
	local pkg=$1 ver=$2 dir=$3 dsc sum size f url
	dsc=${pkg}_${ver#*:}.dsc
	url=http://deb.debian.org/debian/pool/main/${pkg:0:1}/$pkg
	/usr/lib/apt/apt-helper download-file "$url/${dsc//+/%2b}" "$dir/$dsc" >> "$dir.download.log" 2>&1 ||
		{ echo "pgbuild: cannot fetch $url/$dsc" >&2; return 1; }
	gpgv --keyring /usr/share/keyrings/debian-keyring.gpg "$dir/$dsc" >> "$dir.download.log" 2>&1 ||
		{ echo "pgbuild: bad or unknown signature on $dsc" >&2; return 1; }
	# "Checksums-Sha256:" block: " SUM SIZE FILE" lines
	sed -n '/^Checksums-Sha256:/,/^[^ ]/{/^ /p}' "$dir/$dsc" | while read -r sum size f; do
		/usr/lib/apt/apt-helper download-file "$url/${f//+/%2b}" "$dir/$f" "SHA256:$sum" \
			>> "$dir.download.log" 2>&1 || { echo "pgbuild: cannot fetch $f" >&2; exit 1; }
		echo "$sum  $dir/$f" | sha256sum -c --quiet - || exit 1
	done
}

# reuse MAJOR DEBVER: the install of that exact version is there
reuse() {
	local upver=${2#*:} prefix
	upver=${upver%-*}; prefix=$CACHE/$1-$upver
	if [ -f "$prefix/.bloomset-build" ] && [ -x "$prefix/bin/pg_config" ] &&
			[ "$(cat "$prefix/.bloomset-build")" = "postgresql-$1 $2 $BUILD_FLAGS" ]; then
		as_root ln -sfn "$prefix" "$CACHE/$1"
		echo "pgbuild $1: $prefix (reused, $2)"
		return 0
	fi
	return 1
}

build_one() {
	local major=$1 pkg=postgresql-$1 debver upver prefix stamp link t0 src tarball
	link=$CACHE/$major
	if ! apt_update; then
		if [ -f "$link/.bloomset-build" ]; then
			echo "pgbuild $major: $(readlink -f "$link") (reused, offline)"; return 0
		fi
		return 1
	fi
	debver=$(newest_version "$pkg")
	[ -n "$debver" ] || { echo "pgbuild: no source package $pkg in $APTDIR/sources.list" >&2; return 1; }
	t0=$(date +%s)
	if ! reuse "$major" "$debver"; then
		src=$CACHE/src/$pkg-$debver
		as_root rm -rf "$src" "$src.download.log" && as_root mkdir -p "$src"
		if ! download_src "$pkg" "$debver" "$src"; then
			local fb=${FALLBACK[$major]:-}
			echo "pgbuild $major: $pkg $debver is listed but not downloadable here" \
				"($(grep -m1 -oE '[0-9]{3} +Not Found|Failed to fetch.*' "$src.download.log" | head -n 1));" \
				"falling back to ${fb:-nothing}" >&2
			[ -n "$fb" ] || { cat "$src.download.log" >&2; return 1; }
			as_root rm -rf "$src"
			debver=$fb
			reuse "$major" "$debver" && return 0
			src=$CACHE/src/$pkg-$debver
			as_root rm -rf "$src" "$src.download.log" && as_root mkdir -p "$src"
			download_pool "$pkg" "$debver" "$src" || return 1
		fi
	else
		return 0
	fi
	upver=${debver#*:}; upver=${upver%-*}
	prefix=$CACHE/$major-$upver
	stamp="$pkg $debver $BUILD_FLAGS"
	echo "pgbuild $major: building $pkg $debver into $prefix (download $(( $(date +%s) - t0 ))s)"
	tarball=$(ls "$src"/"${pkg}_${upver}".orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1)
	[ -n "$tarball" ] || { echo "pgbuild: no orig tarball in $src" >&2; return 1; }
	mkdir -p "$src/build"
	tar -xf "$tarball" -C "$src/build" --strip-components=1
	as_root rm -rf "$prefix"
	(
		set -e
		cd "$src/build"
		./configure --prefix="$prefix" --with-icu --enable-tap-tests \
			--without-readline --without-llvm > "$src/configure.log" 2>&1
		make -s -j"$JOBS" > "$src/make.log" 2>&1
		make -s install >> "$src/make.log" 2>&1
		# not part of the top-level install: isolation tester + TAP modules
		make -s -j"$JOBS" -C src/test/isolation install >> "$src/make.log" 2>&1
		make -s -C src/test/perl install >> "$src/make.log" 2>&1
		# the shard test (test/t/009) ships aggregates through postgres_fdw
		make -s -j"$JOBS" -C contrib/postgres_fdw install >> "$src/make.log" 2>&1
	) || { echo "pgbuild: build of $pkg failed; tail of logs in $src:" >&2
		tail -n 30 "$src/configure.log" "$src/make.log" >&2 2>/dev/null; return 1; }
	echo "$stamp" > "$prefix/.bloomset-build"
	as_root ln -sfn "$prefix" "$link"
	# the sources are not needed any more (the tarball stays for a rebuild)
	rm -rf "$src/build"
	# older builds of this major
	for old in "$CACHE/$major"-*; do
		[ "$old" != "$prefix" ] && [ -d "$old" ] && as_root rm -rf "$old"
	done
	echo "pgbuild $major: $prefix (built in $(( $(date +%s) - t0 ))s, $debver)"
}

# one build at a time per cache (2 cores): a second caller waits
exec 9>"$CACHE/.lock"
flock 9
rc=0
for m in "$@"; do
	build_one "$m" || { echo "pgbuild $m: FAILED" >&2; rc=1; }
done
exit $rc
