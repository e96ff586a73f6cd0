#include "haloflag/bench/shared_options.hpp"

#include <cstdlib>


namespace haloflag::bench {

CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value,
                        const std::vector<std::string>& choices, const std::string& help) {
  std::string type_name;
  for (const std::string& choice : choices) {
    type_name += (type_name.empty() ? "" : "|") + choice;
  }
  return app.add_option(name, value, help)
      ->check(CLI::IsMember(choices).description(""))
      ->type_name(type_name)
      ->capture_default_str();
}

CLI::Option* add_backend_option(CLI::App& app, std::string& backend_name,
                                const std::string& help) {
  return add_choice(app, "--backend", backend_name, {"auto", "host", "cuda", "hip"}, help);
}

CLI::Option* add_gpu_option(CLI::App& app, int& gpu, const std::string& help) {
  return app.add_option("--gpu", gpu, help)->type_name("N")->check(at_least(0));
}

CLI::Option* add_timeout_option(CLI::App& app, double& seconds, const std::string& help,
                                double most_seconds) {
  return app.add_option("--timeout", seconds, help)
      ->check(CLI::Range(1e-3, most_seconds).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
}

CLI::Option* add_json_option(CLI::App& app, std::string& path, const std::string& help) {
  return app.add_option("--json", path, help)->type_name("FILE")->capture_default_str();
}

CLI::Option* add_node_size_option(CLI::App& app, int& node_size, const std::string& help) {
  return app.add_option("--node-size", node_size, help)->check(at_least(0));
}

void apply_node_size(const CLI::App& app, int& node_size) {
  if (app.count("--node-size") > 0) {
    setenv("HALOFLAG_NODE_SIZE", std::to_string(node_size).c_str(), 1);
  } else if (const char* from_environment = std::getenv("HALOFLAG_NODE_SIZE");
             from_environment != nullptr) {
    node_size = std::atoi(from_environment);
  }
}

}  // namespace haloflag::bench
