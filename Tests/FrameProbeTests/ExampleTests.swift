import Foundation
import Testing

/// The cluster examples are files the README quotes word for word; the Kubernetes Job parses as YAML, is an Indexed
/// Job with as many completions as shards, and runs the image Scripts/test-container builds. (The Slurm example runs
/// for real in Scripts/test-slurm.)
@Suite struct ExampleTests {
    static func text(_ relative: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test(arguments: ["examples/kubernetes/job.yaml", "examples/slurm/array.sbatch"])
    func theReadmeQuotesTheExampleAsItIs(file: String) throws {
        let example = try Self.text(file)
        #expect(try Self.text("README.md").contains("```\(file.hasSuffix(".yaml") ? "yaml" : "sh")\n\(example)```"), "README lacks \(file) as it is")
    }

    @Test func theKubernetesJobIsAnIndexedJobOfTheTestedImage() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("examples/kubernetes/job.yaml").path
        // Debian's python3-yaml (Scripts/bootstrap --test) reads it: the job's shape as JSON.
        let parsed = Shell.run("""
            /usr/bin/python3 - \(Shell.quote(path)) <<'EOF'
            import json, sys, yaml
            job = yaml.safe_load(open(sys.argv[1]))
            container = job["spec"]["template"]["spec"]["containers"][0]
            print(json.dumps({"kind": job["kind"], "mode": job["spec"]["completionMode"], "completions": job["spec"]["completions"],
                              "image": container["image"], "args": container["args"],
                              "mounts": [m.get("subPathExpr", m.get("subPath")) for m in container["volumeMounts"]]}))
            EOF
            """)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        #expect(job["kind"] as? String == "Job" && job["mode"] as? String == "Indexed")
        let args = try #require(job["args"] as? [String])
        let count = try #require(args.firstIndex(of: "--shard-count").map { args[$0 + 1] })
        #expect(job["completions"] as? Int == Int(count), "completions \(job["completions"] ?? "none"), --shard-count \(count)")
        #expect(args.contains("--resume") && args.first == "report")
        // Each shard writes into a folder of its own on the volume.
        #expect((job["mounts"] as? [String])?.contains("reports/shard-$(SHARD)") == true, "\(job["mounts"] ?? "")")
        let built = try Self.text("Scripts/test-container").split(separator: "\n").first { $0.hasPrefix("image=") }
        #expect(built.map { "image=\"\(job["image"] as? String ?? "")\"" == $0.split(separator: " ").first.map(String.init) } == true,
                "\(built ?? "no image= line") vs \(job["image"] ?? "")")
    }
}
