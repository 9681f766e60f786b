// halmad's config file (TOML, read by toml++ in daemon/net/config.cpp), given as
// `halmad --config FILE --check-config` gives it: every input is either settings that pass the
// checks or a bad config (exit code 2), never a crash. The file is a memfd, so no disk is touched.
#include "daemon/net/config.h"
#include "fuzz_check.h"

#include <iostream>
#include <sys/mman.h>
#include <unistd.h>

using halma::fuzz::broken;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    int fd = memfd_create("halmad.toml", 0);
    if (fd < 0) broken("memfd_create failed");
    for (std::size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) broken("cannot write the memfd");
        done += static_cast<std::size_t>(n);
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    std::string args[] = { "halmad", "--config", path, "--check-config" };
    char* argv[std::size(args)];
    for (std::size_t i = 0; i < std::size(args); ++i) argv[i] = args[i].data();
    // A bad config is told on stderr: thousands of them per second are noise here.
    auto* err = std::cerr.rdbuf(nullptr);
    auto result = halma::daemon::load_config(static_cast<int>(std::size(args)), argv);
    std::cerr.rdbuf(err);
    std::cerr.clear();
    close(fd);
    if (auto* code = std::get_if<int>(&result); code && *code != 2)
        broken("a config file ended in an exit code other than 2", std::to_string(*code));
    return 0;
}
