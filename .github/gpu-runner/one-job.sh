#!/usr/bin/env bash
# One GitHub Actions job on the GPU machine, after which nothing of it is left. systemd runs this script as
# root (neghub-gpu-runner.service) and starts it again once it exits, for the next job (Restart=always; a
# registration GitHub refuses three times stops it: exit 78, one log line, RestartPreventExitStatus=78):
#   1. it asks GitHub for a just-in-time runner configuration: an ephemeral registration that takes
#      exactly one job and is then removed;
#   2. it runs that one job as the unprivileged runner user, in a new copy of the runner and a new, empty
#      home (pip's, Hugging Face's and NegHub's caches and setup-python's tool cache all live in there);
#   3. the folders go when the job ends, and systemd kills every process the job left behind when this
#      script exits (KillMode=control-group); /tmp is the unit's own and new each time (PrivateTmp=yes).
# A job's leftovers (processes, caches, a poisoned pip cache) cannot reach the next job, and a compromised
# job cannot persist on the machine. The token that mints registrations is readable by root alone and
# never reaches a job.
# The runner registers in the organisation's runner group `neghub-gpu`, whose access is limited to this
# repository's two GPU workflows on main (README, "The GPU runner"): a pull request can add any job, any labels,
# to its own copy of a workflow, and a repository's own runners sit in its default group, open to them all.
set -euo pipefail

org=${NEGHUB_RUNNER_ORG:?the unit sets NEGHUB_RUNNER_ORG=the organisation that owns the repository}
group=${NEGHUB_RUNNER_GROUP_ID:?the unit sets NEGHUB_RUNNER_GROUP_ID=the id of the runner group neghub-gpu}
runner_user=${NEGHUB_RUNNER_USER:-neghub-runner}
pristine=/opt/actions-runner # the runner release, unpacked once, owned by root; jobs run in copies of it
token_file=/etc/neghub-gpu-runner/token # 0600 root: fine-grained, the organisation's Self-hosted runners: read and write
jobs_root=/var/lib/neghub-gpu-runner

# an earlier job's folders (its processes were killed when the unit stopped): gone before the next job
rm -rf --one-file-system "${jobs_root:?}"/job.*
job=$(mktemp -d "$jobs_root/job.XXXXXXXX")
trap 'rm -rf --one-file-system "$job"' EXIT
cp -a "$pristine/." "$job/runner"
mkdir "$job/home"
chown -R "$runner_user:" "$job/runner" "$job/home"

request=$(jq -n --arg name "gpu-$(hostname -s)-${job##*.}" --arg group "$group" \
  '{name: $name, runner_group_id: ($group|tonumber), labels: ["self-hosted", "gpu"], work_folder: "_work"}')
# the registration, tried a bounded number of times: an expired or revoked token fails the same way every time, so
# after the last try the script says so in one line and exits 78, which the unit does not restart
# (RestartPreventExitStatus=78) until a maintainer renews the token and restarts it
tries=3
for try in $(seq "$tries"); do
  # the token goes to curl through a file descriptor, never on a command line other users can read
  if reply=$(
    curl --fail --silent --show-error --request POST \
      --header @<(printf 'Authorization: Bearer %s\n' "$(<"$token_file")") \
      --header "Accept: application/vnd.github+json" \
      --header "X-GitHub-Api-Version: 2022-11-28" \
      --data "$request" \
      "https://api.github.com/orgs/$org/actions/runners/generate-jitconfig" 2>&1
  ); then
    break
  fi
  if [ "$try" -eq "$tries" ]; then
    echo "neghub-gpu-runner: registration refused $tries times (${reply//$'\n'/ }): renew $token_file, then systemctl restart neghub-gpu-runner" >&2
    exit 78
  fi
  sleep 30
done
# the runner's credential goes by a file only its user reads (0600), which the runner's own shell reads into its
# environment (ACTIONS_RUNNER_INPUT_JITCONFIG, the runner's --jitconfig) and deletes: never a command line, which
# every user of the machine can read in /proc
jit_file="$job/jitconfig"
(umask 077 && jq -j .encoded_jit_config <<<"$reply" >"$jit_file")
unset reply
chown "$runner_user:" "$jit_file"

cd "$job/runner"
# shellcheck disable=SC2016 # expanded by the runner user's shell, not this one
runuser -u "$runner_user" -- env -i HOME="$job/home" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
  NEGHUB_JIT_FILE="$jit_file" bash -c \
  'ACTIONS_RUNNER_INPUT_JITCONFIG=$(<"$NEGHUB_JIT_FILE") && rm -f "$NEGHUB_JIT_FILE" && export ACTIONS_RUNNER_INPUT_JITCONFIG && unset NEGHUB_JIT_FILE && exec ./run.sh'
