#include "cli/client/join_target.h"

#include "cli/client/host_address.h"

namespace halma::cli {

std::expected<::halma::v1::JoinRequest, std::string> parse_join_target(const std::string& target) {
    ::halma::v1::JoinRequest join;
    auto slash = target.find('/');
    std::string head = target.substr(0, slash);
    // A colon and digits after it make a port; a room name may hold a colon ("Sunday: kids").
    bool has_port = head.find(':') != std::string::npos
        && head.substr(head.rfind(':') + 1).find_first_not_of("0123456789") == std::string::npos;
    if (slash == std::string::npos && !has_port) {
        join.set_room(target);
        return join;
    }
    if (head.empty()) return std::unexpected("'" + target + "' has no host before the /");
    if (auto why = host_address_problem(head)) return std::unexpected("'" + target + "': " + *why);
    join.set_address(head);
    if (slash != std::string::npos) join.set_room(target.substr(slash + 1));
    return join;
}

std::string join_target_text(const ::halma::v1::JoinRequest& join) {
    if (join.address().empty()) return join.room();
    return join.room().empty() ? join.address() : join.address() + "/" + join.room();
}

} // namespace halma::cli
