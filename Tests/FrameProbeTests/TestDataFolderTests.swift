import Foundation
import Testing

/// Scripts/testdata: finding the test-data folder, checking a folder against TestVideos/MANIFEST.tsv, fetching it
/// from a server (a local HTTP server on 127.0.0.1 serving copies of the folder, in two layouts).
struct TestDataFolderTests {
    static let script = Fixtures.packageRoot.appendingPathComponent("Scripts/testdata").path
    /// Rows in the manifest, originals in it (the rest were made from them or describe them), the clips' frames.
    static let rows = 247, originals = 165, frames = 18

    @Test func theFolderIsFoundFromTheVariableOrBesideTheCheckout() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let named = Shell.run("FRAMEPROBE_TEST_DATA=\(Shell.quote(dir.path)) \(Shell.quote(Self.script)) dir")
        #expect(named.status == 0 && named.stdout == dir.path + "\n", "\(named.stdout) \(named.stderr)")
        let missing = Shell.run("FRAMEPROBE_TEST_DATA=\(Shell.quote(dir.path + "/absent")) \(Shell.quote(Self.script)) dir")
        #expect(missing.status == 2 && missing.stderr.contains("/absent is not a folder"), "\(missing.stderr)")
        // Unset: ../shared/devdata beside the checkout, as the tests' helper finds it.
        let beside = Shell.run("unset FRAMEPROBE_TEST_DATA; \(Shell.quote(Self.script)) dir")
        let besideFolder = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/devdata")
        if FileManager.default.fileExists(atPath: besideFolder.path) {
            #expect(beside.status == 0 && beside.stdout == besideFolder.standardized.path + "\n", "\(beside.stdout)")
        } else {
            #expect(beside.status == 2 && beside.stderr.contains("shared/devdata does not exist"), "\(beside.stderr)")
        }
    }

    @Test(.needsTestData) func verifyNamesEachMissingOrChangedFile() throws {
        let good = Shell.run("\(Shell.quote(Self.script)) verify \(Shell.quote(TestData.folder.path))")
        #expect(good.status == 0 && good.stdout.contains("\(Self.rows) files in") && good.stdout.contains(" 0 missing or changed"), "\(good.stdout) \(good.stderr)")

        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("copy").path
        let broken = Shell.run("""
            cp -r \(Shell.quote(TestData.folder.path)) \(Shell.quote(copy)) && chmod -R u+w \(Shell.quote(copy)) && \
            rm \(Shell.quote(copy))/qr/qrcode-2/10.png && printf x >> \(Shell.quote(copy))/video/driving_d11.mp4 && \
            \(Shell.quote(Self.script)) verify \(Shell.quote(copy))
            """)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("missing: qr/qrcode-2/10.png"), "\(broken.stderr)")
        #expect(broken.stderr.contains("changed: video/driving_d11.mp4"), "\(broken.stderr)")
        #expect(broken.stdout.contains(" 2 missing or changed"), "\(broken.stdout)")
    }

    /// A mirror of the folder, and a server laid out as the sources' repositories are (REPOSITORY/COMMIT/PATH): from
    /// the latter, the originals are fetched and the frames cut from the fetched clips (same sha256); the renders and
    /// the folder's own descriptions exist in no repository, so they are named and the exit is 1. A file the server
    /// serves changed is refused, and nothing half-fetched is left.
    @Test(.needsTestData) func fetchFromAMirrorAndFromTheSourcesLayout() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = dir.appendingPathComponent("served").path
        let result = Shell.run("""
            set -e
            dir=\(Shell.quote(dir.path)); served=\(Shell.quote(served)); data=\(Shell.quote(TestData.folder.path)); script=\(Shell.quote(Self.script))
            mkdir -p "$served"; cp -r "$data" "$served/mirror"; chmod -R u+w "$served"
            grep -v '^#' \(Shell.quote(Fixtures.packageRoot.appendingPathComponent("TestVideos/MANIFEST.tsv").path)) | tail -n +2 |
              while IFS=$'\\t' read -r path repository in_repository commit sha derived; do
                [ "$repository" != - ] && [ "$derived" = - ] || continue
                mkdir -p "$served/up/$repository/$commit/$(dirname "$in_repository")"
                cp "$data/$path" "$served/up/$repository/$commit/$in_repository"
              done
            python3 -u -m http.server --bind 127.0.0.1 0 --directory "$served" > "$served.log" 2>&1 &
            server=$!; trap 'kill -KILL $server' EXIT   # KILL: the test process's children inherit its blocked TERM
            for _ in $(seq 200); do grep -q 'port [0-9]' "$served.log" && break; sleep 0.1; done
            port=$(grep -o 'port [0-9]*' "$served.log" | head -1 | cut -d' ' -f2)
            echo "== mirror"; "$script" fetch "$dir/a" --base "http://127.0.0.1:$port/mirror" 2>&1 && echo "exit 0"
            echo "== verify"; "$script" verify "$dir/a" 2>&1 && echo "exit 0"
            echo "== sources"; "$script" fetch "$dir/b" --base "http://127.0.0.1:$port/up/{repository}/{commit}/{path_in_repository}" 2>&1 || echo "exit $?"
            printf x >> "$served/mirror/qr/qrcode-1/1.png"
            echo "== changed"; "$script" fetch "$dir/c" --base "http://127.0.0.1:$port/mirror/" 2>&1 || echo "exit $?"
            echo "== left"; find "$dir/a" "$dir/b" "$dir/c" -name '*.part*' | wc -l; [ -e "$dir/c/qr/qrcode-1/1.png" ] && echo "kept" || echo "not kept"
            """)
        let parts = Dictionary(uniqueKeysWithValues: result.stdout.components(separatedBy: "== ").dropFirst().map { part -> (String, String) in
            let split = part.split(separator: "\n", maxSplits: 1)
            return (String(split[0]), split.count > 1 ? String(split[1]) : "")
        })
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(parts["mirror"]?.contains("testdata fetch: \(Self.rows) fetched, 0 cut from clips, 0 already there, 0 could not be had") == true, "\(result.stdout)")
        #expect(parts["mirror"]?.hasSuffix("exit 0\n") == true)
        #expect(parts["verify"]?.contains(" 0 missing or changed") == true && parts["verify"]?.hasSuffix("exit 0\n") == true)
        let sources = parts["sources"] ?? ""
        #expect(sources.contains("testdata fetch: \(Self.originals) fetched, \(Self.frames) cut from clips, 0 already there, \(Self.rows - Self.originals - Self.frames) could not be had"), "\(sources)")
        #expect(sources.contains("not in a repository: turned/d3_p0_y30_r0.jpg") && sources.contains("not in a repository: pose/pose_truth.csv"))
        #expect(sources.hasSuffix("exit 1\n"))
        let changed = parts["changed"] ?? ""
        #expect(changed.contains("checksum differs: qr/qrcode-1/1.png") && changed.contains(", 1 could not be had") && changed.hasSuffix("exit 1\n"), "\(changed)")
        #expect(parts["left"] == "0\nnot kept\n", "\(parts["left"] ?? "")")
    }
}
