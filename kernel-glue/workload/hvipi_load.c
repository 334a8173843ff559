// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_load.c - the guest workload of the QEMU test-hypervisor runs
 * (kernel-glue/scripts/qemu-test.sh, test_hv=): keeps the kernel sending
 * its own IPIs while hvipi plans them.  Built on the host with
 * gcc -static -pthread and put in the initramfs.
 *
 *   hvipi_load SECONDS
 *
 * For SECONDS, in parallel:
 *   - fork/exec storms: 2 processes fork and exec /bin/true in a loop;
 *   - one process whose threads (one per CPU, at most 8) are pinned to
 *     different CPUs and mmap/touch/mprotect/munmap in a loop: the shared
 *     mm makes each mprotect/munmap a TLB shootdown to the other CPUs;
 *   - pipe ping-pong between pairs of processes pinned to different CPUs
 *     (each wakeup of a task on another CPU: reschedule / function-call
 *     IPIs).
 * Pinning is renewed now and then (CPU hotplug runs meanwhile and may
 * undo it).  Prints one line "HVIPI-LOAD ... ok" and exits 0 only if every
 * kind of work made progress and nothing failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	8
#define MAX_PAIRS	4
#define MM_BYTES	(16 * 4096)

struct shared {
	volatile int stop;
	unsigned long forkexec[2];
	unsigned long mm_loops[MAX_THREADS];
	unsigned long pingpong[MAX_PAIRS];
	unsigned long errors;
	unsigned long pin_fails;	/* CPU offline at the time: not an error */
};

static struct shared *sh;
static int ncpus;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % ncpus, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		__sync_fetch_and_add(&sh->pin_fails, 1);
}

static void error(const char *what)
{
	fprintf(stderr, "hvipi_load: %s: %s\n", what, strerror(errno));
	__sync_fetch_and_add(&sh->errors, 1);
}

static void forkexec_loop(int k)
{
	while (!sh->stop) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			error("fork");
			continue;
		}
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			error("exec /bin/true");
		else
			sh->forkexec[k]++;
	}
}

static void *mm_thread(void *arg)
{
	int k = (int)(long)arg;
	unsigned long i = 0;

	while (!sh->stop) {
		volatile char *p;
		size_t off;

		if (i++ % 256 == 0)
			pin(k);
		p = mmap(NULL, MM_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			error("mmap");
			continue;
		}
		for (off = 0; off < MM_BYTES; off += 4096)
			p[off] = (char)k;
		if (mprotect((void *)p, MM_BYTES, PROT_READ))
			error("mprotect");
		for (off = 0; off < MM_BYTES; off += 4096)
			if (p[off] != (char)k)
				error("mm contents");
		if (mprotect((void *)p, MM_BYTES, PROT_READ | PROT_WRITE))
			error("mprotect");
		p[0] = 1;
		if (munmap((void *)p, MM_BYTES))
			error("munmap");
		sh->mm_loops[k]++;
	}
	return NULL;
}

static void mm_process(int nthreads)
{
	pthread_t t[MAX_THREADS];
	int k;

	for (k = 0; k < nthreads; k++)
		if (pthread_create(&t[k], NULL, mm_thread, (void *)(long)k))
			error("pthread_create");
	for (k = 0; k < nthreads; k++)
		pthread_join(t[k], NULL);
}

/* Pair k: the pinger on CPU 2k, the ponger on CPU 2k + 1. */
static void pingpong(int k)
{
	int ab[2], ba[2];
	unsigned long i = 0;
	char c = 'x';
	pid_t pid;

	if (pipe(ab) || pipe(ba)) {
		error("pipe");
		return;
	}
	pid = fork();
	if (pid < 0) {
		error("fork");
		return;
	}
	if (pid == 0) {		/* ponger: echo until the pinger closes */
		close(ab[1]);
		close(ba[0]);
		for (;;) {
			ssize_t n;

			if (i++ % 1024 == 0)
				pin(2 * k + 1);
			n = read(ab[0], &c, 1);
			if (n == 0)
				_exit(0);
			if (n != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		}
	}
	close(ab[0]);
	close(ba[1]);
	while (!sh->stop) {
		if (i++ % 1024 == 0)
			pin(2 * k);
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			error("ping-pong");
			break;
		}
		sh->pingpong[k]++;
	}
	close(ab[1]);
	{
		int status;

		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			error("ponger");
	}
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 30;
	int nthreads, npairs, k, nkids = 0, ok, status;
	unsigned long fe = 0, mm = 0, pp = 0;
	pid_t kids[2 + 1 + MAX_PAIRS];

	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus < 1)
		ncpus = 1;
	nthreads = ncpus < MAX_THREADS ? ncpus : MAX_THREADS;
	npairs = ncpus / 2 < MAX_PAIRS ? ncpus / 2 : MAX_PAIRS;
	if (npairs < 1)
		npairs = 1;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(sh, 0, sizeof(*sh));

	for (k = 0; k < 2 + 1 + npairs; k++) {
		pid_t pid = fork();

		if (pid < 0) {
			error("fork");
			continue;
		}
		if (pid == 0) {
			if (k < 2)
				forkexec_loop(k);
			else if (k == 2)
				mm_process(nthreads);
			else
				pingpong(k - 3);
			_exit(0);
		}
		kids[nkids++] = pid;
	}
	sleep(secs);
	sh->stop = 1;
	for (k = 0; k < nkids; k++)
		if (waitpid(kids[k], &status, 0) != kids[k] ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			error("worker");

	ok = sh->errors == 0 && nkids == 2 + 1 + npairs;
	for (k = 0; k < 2; k++) {
		fe += sh->forkexec[k];
		ok &= sh->forkexec[k] > 0;
	}
	for (k = 0; k < nthreads; k++) {
		mm += sh->mm_loops[k];
		ok &= sh->mm_loops[k] > 0;
	}
	for (k = 0; k < npairs; k++) {
		pp += sh->pingpong[k];
		ok &= sh->pingpong[k] > 0;
	}
	printf("HVIPI-LOAD secs=%d cpus=%d fork_exec=%lu mm_threads=%d mm_loops=%lu pingpong_pairs=%d round_trips=%lu errors=%lu pin_fails=%lu %s\n",
	       secs, ncpus, fe, nthreads, mm, npairs, pp, sh->errors,
	       sh->pin_fails, ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
