"""Separate hosts on one machine for the tests of training over a network: each host is a
network namespace with its own address on one virtual bridge (veth pairs), so that processes in
different hosts reach each other only over TCP through that link, which a test can cut and heal
(`cut` sets the host's end of its veth pair down). The file system stays shared, as a cluster's
shared home is.

Open MPI starts its daemons on such hosts through `rsh_agent`, a script that runs its command
in the namespace of the host it names (what ssh does between machines); docs/CLUSTER.md's
settings for a cluster are those of `mpirun_args`. Needs root (CAP_NET_ADMIN) and iproute2:
`Hosts.make` raises HostsUnavailable with the reason where namespaces cannot be made."""
import os
import subprocess


class HostsUnavailable(Exception):
    pass


def _ip(*args, check=True):
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


class Hosts:
    """`count` hosts named by their addresses 10.<a>.<b>.1 ... (a /24 of this process's own,
    so that two test processes at once do not collide); `exec(i, argv)` runs argv in host i."""

    def __init__(self, count, folder):
        tag = os.getpid() % 100000
        self.prefix = f"qx{tag}"  # interface names stay under 15 characters
        self.net = f"10.{100 + tag // 250 % 100}.{tag % 250}"
        self.count = count
        self.folder = folder
        self.made = []

    def address(self, i):
        return f"{self.net}.{i + 1}"

    def namespace(self, i):
        return f"{self.prefix}h{i}"

    def veth(self, i):
        return f"{self.prefix}v{i}"

    @property
    def bridge(self):
        return f"{self.prefix}b"

    @classmethod
    def make(cls, count, folder):
        hosts = cls(count, folder)
        try:
            hosts._up()
        except (OSError, subprocess.CalledProcessError) as e:
            hosts.remove()
            reason = e.stderr.strip() if isinstance(e, subprocess.CalledProcessError) and e.stderr else str(e)
            raise HostsUnavailable(f"network namespaces cannot be made here ({reason})") from e
        return hosts

    def _up(self):
        _ip("link", "add", self.bridge, "type", "bridge")
        self.made.append(("link", self.bridge))
        _ip("link", "set", self.bridge, "up")
        for i in range(self.count):
            ns, veth = self.namespace(i), self.veth(i)
            _ip("netns", "add", ns)
            self.made.append(("netns", ns))
            _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
            self.made.append(("link", veth))
            _ip("link", "set", veth, "master", self.bridge)
            _ip("link", "set", veth, "up")
            _ip("netns", "exec", ns, "ip", "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
            _ip("netns", "exec", ns, "ip", "link", "set", "eth0", "up")
            _ip("netns", "exec", ns, "ip", "link", "set", "lo", "up")
        # The rsh agent of Open MPI: "<address> <command...>" runs the command in that host.
        self.rsh_agent = os.path.join(self.folder, "rsh-agent")
        cases = "\n".join(f"  {self.address(i)}) ns={self.namespace(i)} ;;" for i in range(self.count))
        with open(self.rsh_agent, "w") as f:
            f.write("#!/bin/sh\n# Open MPI's rsh agent for the test hosts (tests/distributed/hosts.py).\n"
                    f"host=$1; shift\ncase \"$host\" in\n{cases}\n"
                    "  *) echo \"rsh-agent: no test host $host\" >&2; exit 1 ;;\nesac\n"
                    "exec ip netns exec \"$ns\" /bin/sh -c \"$*\"\n")
        os.chmod(self.rsh_agent, 0o755)
        self.hostfile = os.path.join(self.folder, "hosts")
        with open(self.hostfile, "w") as f:
            f.write("".join(f"{self.address(i)} slots=1\n" for i in range(self.count)))

    def exec_argv(self, i, argv):
        return ["ip", "netns", "exec", self.namespace(i), *argv]

    def mpirun_args(self, ranks):
        """mpirun's options for `ranks` ranks on hosts 0.. in order (rank 0 on host 0), started
        from host 0: daemons through the rsh agent, ranks and daemons over TCP on the test
        network only (no shared memory between ranks)."""
        return ["--hostfile", self.hostfile, "-np", str(ranks), "--map-by", "node", "--bind-to", "none",
                "--mca", "plm_rsh_agent", self.rsh_agent, "--mca", "plm_rsh_no_tree_spawn", "1",
                "--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", f"{self.net}.0/24",
                "--mca", "oob_tcp_if_include", f"{self.net}.0/24"]

    def cut(self, i):
        _ip("link", "set", self.veth(i), "down")

    def heal(self, i):
        _ip("link", "set", self.veth(i), "up")

    def remove(self):
        for kind, name in reversed(self.made):
            if kind == "netns":
                _ip("netns", "del", name, check=False)
            else:
                _ip("link", "del", name, check=False)
        self.made = []
