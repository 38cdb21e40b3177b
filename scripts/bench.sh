#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the main job on the embedded default (a private veth pair in
# namespaces ppbench creates and removes). Results are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
PPBENCH=${PPBENCH:-build/ppbench}

"$PPBENCH" probe
