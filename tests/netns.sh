#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every network namespace some process, thread, fd or mount still holds, by
# inode. ppbench's namespaces are held only by its own fds, so once ppbench
# (and anything it started) is gone, their inodes must be gone from this list.
netns_inodes() {
	{
		readlink /proc/[0-9]*/ns/net /proc/[0-9]*/task/*/ns/net
		find /proc/[0-9]*/fd -lname 'net:*' -printf '%l\n'
		grep -o 'net:\[[0-9]*\]' /proc/self/mountinfo
	} 2>/dev/null | grep -o '[0-9][0-9]*' | sort -u
}
