// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: receive UDP datagrams on PORT (in the caller's namespace)
 * until COUNT arrived or TIMEOUT seconds passed; print how many and how many
 * had the expected payload length. Exit 0 if COUNT arrived with that length.
 *   udp_sink PORT COUNT LEN TIMEOUT
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	long count, len, got = 0, right = 0;
	char buf[65536];
	time_t end;
	int fd, rcv = 64 << 20;

	if (argc != 5) {
		fprintf(stderr, "usage: udp_sink PORT COUNT LEN TIMEOUT\n");
		return 2;
	}
	a.sin_port = htons(atoi(argv[1]));
	count = atol(argv[2]);
	len = atol(argv[3]);
	end = time(NULL) + atoi(argv[4]);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	/* Room for every datagram of a burst: FORCE passes net.core.rmem_max (root). */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("udp_sink: bind");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (got < count && time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			continue;
		got++;
		right += n == len;
	}
	printf("received %ld datagrams, %ld of %ld bytes\n", got, right, len);
	return got == count && right == count ? 0 : 1;
}
