#include "processes.h"

#include <arpa/inet.h>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace halma::bench {

Children::~Children() {
    stop_all();
}

pid_t Children::spawn(const std::vector<std::string>& argv, const std::filesystem::path& log) {
    // Everything the child needs is prepared before fork: between fork and exec only
    // async-signal-safe calls are allowed (the parent has ZeroMQ threads).
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log_fd < 0) throw std::runtime_error("cannot open " + log.string());
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(log_fd);
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127); // the bench died before prctl took effect
        // The bench blocks no signals, but be sure the child starts with a clean mask.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        dup2(log_fd, STDOUT_FILENO);
        dup2(log_fd, STDERR_FILENO);
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
        execv(args[0], args.data());
        _exit(127);
    }
    close(log_fd);
    pids_.push_back(pid);
    return pid;
}

bool Children::running(pid_t pid) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == 0) return true;
    std::erase(pids_, pid);
    return false;
}

void Children::stop_all() {
    for (pid_t pid : pids_) kill(pid, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!pids_.empty() && std::chrono::steady_clock::now() < deadline) {
        std::erase_if(pids_, [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
        if (!pids_.empty()) {
            struct timespec ts {
                0, 10'000'000
            };
            nanosleep(&ts, nullptr);
        }
    }
    for (pid_t pid : pids_) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
    }
    pids_.clear();
}

ProcSample sample_process(pid_t pid) {
    ProcSample s;
    auto base = std::filesystem::path("/proc") / std::to_string(pid);
    std::error_code ec;
    // Field 1 of each thread's schedstat: nanoseconds it has run (threads that ended are not
    // counted, but halmad's threads live as long as it does).
    for (const auto& task : std::filesystem::directory_iterator(base / "task", ec)) {
        std::ifstream stat(task.path() / "schedstat");
        std::uint64_t ns = 0;
        if (stat >> ns) s.cpu_ns += ns;
        std::ifstream status(task.path() / "status");
        for (std::string line; std::getline(status, line);)
            if (line.find("ctxt_switches:") != std::string::npos)
                s.switches += std::strtoull(line.c_str() + line.find(':') + 1, nullptr, 10);
    }
    if (ec) throw std::runtime_error("process " + std::to_string(pid) + " is gone");
    std::ifstream status(base / "status");
    for (std::string line; std::getline(status, line);) {
        auto kb = [&](const char* key) {
            return std::strtoull(line.c_str() + std::strlen(key), nullptr, 10);
        };
        if (line.rfind("VmRSS:", 0) == 0) s.rss_kb = kb("VmRSS:");
        if (line.rfind("VmHWM:", 0) == 0) s.hwm_kb = kb("VmHWM:");
    }
    return s;
}

std::string log_tail(const std::filesystem::path& log, int lines) {
    std::ifstream in(log);
    std::vector<std::string> kept;
    for (std::string line; std::getline(in, line);) {
        kept.push_back(std::move(line));
        if (kept.size() > static_cast<std::size_t>(lines)) kept.erase(kept.begin());
    }
    std::string out;
    for (const auto& line : kept) out += "\n    " + line;
    return out;
}

namespace {

// Binds 127.0.0.1:port (0: any) and returns the port bound, or 0; the socket is closed again.
int try_bind(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error("socket()");
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    socklen_t len = sizeof addr;
    int bound = 0;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
        && getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        bound = ntohs(addr.sin_port);
    close(fd);
    return bound;
}

} // namespace

int free_port() {
    // A daemon answers key probes on its port + 1: that one must be free too.
    for (int attempt = 0; attempt < 100; ++attempt) {
        int port = try_bind(0);
        if (port > 0 && port < 65535 && try_bind(port + 1) == port + 1) return port;
    }
    throw std::runtime_error("cannot find a free pair of ports on 127.0.0.1");
}

TempDir::TempDir(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp " + pattern);
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

} // namespace halma::bench
