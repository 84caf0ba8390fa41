#!/usr/bin/env python3
"""Reads the line numbers of Flink frames from the release binaries and writes them as the
`[[line]]` entries and the `checked` list of knowledge/version-hints.toml.

Usage:
  python3 scripts/line-numbers.py              (re)write the `checked` list and the [[line]]
                                               section of knowledge/version-hints.toml
  python3 scripts/line-numbers.py --matrix     print the table per frame instead (line: releases)
  python3 scripts/line-numbers.py --exists CLASS...
                                               print in which releases each class exists
                                               (an `X` per release read, `.` where absent)
  --releases 1.17.0,1.17.1,…                   read only these releases (default: RELEASES)
  --no-download                                read the releases whose archive is in the cache,
                                               download nothing

For every release in RELEASES, the PyPI package that ships its flink-dist jar is taken from the
lab's download cache ($LAB_CACHE/dl, default ~/.cache/trace-doctor-lab/dl, shared with
scripts/lab.sh) or downloaded into it with `pip download --no-deps` (`apache-flink` sdists up to
1.12, `apache-flink-libraries` from 1.13.6 on). Its flink-dist jar, and the RPC jar embedded in it
(flink-rpc-akka.jar from 1.14 on), are extracted once into $LAB_CACHE/line-numbers/<release>/.
`javap -c -l -p` of the classes named in SPEC (one javap call per release) gives each invoke
instruction's line (the LineNumberTable entry with the last start offset at or before it: the
line a stack trace prints for a frame making that call). SPEC selects the call sites of interest
per frame; every (frame, callee) pair is a group, with one [[line]] entry per line printed and
the releases that print it. `checked` lists the releases read. OBSERVED and OBS_TRACES add
releases seen in real traces that name their flink-dist jar (1.13.5, 1.12.2).

Standard library only, plus `javap` (a JDK) and `pip`. knowledge/line-numbers.md explains the
method and what the entries cannot tell.
"""
import argparse
import collections
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HINTS = os.path.join(ROOT, 'knowledge', 'version-hints.toml')
CACHE = os.environ.get('LAB_CACHE') or os.path.join(
    os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'trace-doctor-lab')
DL = os.path.join(CACHE, 'dl')
WORK = os.path.join(CACHE, 'line-numbers')

# Every release whose flink-dist jar PyPI has (see knowledge/line-numbers.md for the gaps).
RELEASES = """
1.9.3 1.10.3 1.11.4 1.12.5 1.13.6
1.14.0 1.14.2 1.14.3 1.14.4 1.14.5 1.14.6
1.15.0 1.15.1 1.15.2 1.15.3 1.15.4
1.16.0 1.16.1 1.16.2 1.16.3
1.17.0 1.17.1 1.17.2
1.18.0 1.18.1
1.19.0 1.19.1 1.19.2 1.19.3
1.20.0 1.20.1 1.20.2 1.20.3 1.20.4 1.20.5
2.0.0 2.0.1 2.0.2
2.1.0 2.1.1 2.1.2 2.1.3
2.2.0 2.2.1
2.3.0
""".split()


def key(v):
    return tuple(int(x) for x in v.split('.'))


def package(v):
    return 'apache-flink' if key(v) < (1, 13) else 'apache-flink-libraries'


# --- the classes and call sites read -----------------------------------------------------------

T = 'org.apache.flink.runtime.taskmanager.Task'
ST = 'org.apache.flink.streaming.runtime.tasks.StreamTask'
MP = 'org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor'
SC = 'org.apache.flink.streaming.runtime.tasks.SubtaskCheckpointCoordinatorImpl'
EFH1 = 'org.apache.flink.runtime.executiongraph.failover.flip1.ExecutionFailureHandler'
EFH2 = 'org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler'
SOSH = 'org.apache.flink.streaming.api.operators.StreamOperatorStateHandler'
ROC = 'org.apache.flink.streaming.runtime.tasks.RegularOperatorChain'
ASTNI = 'org.apache.flink.streaming.runtime.io.AbstractStreamTaskNetworkInput'
STNI = 'org.apache.flink.streaming.runtime.io.StreamTaskNetworkInput'
DS = 'org.apache.flink.runtime.scheduler.DefaultScheduler'
JM = 'org.apache.flink.runtime.jobmaster.JobMaster'
SB = 'org.apache.flink.runtime.scheduler.SchedulerBase'
DEGF = 'org.apache.flink.runtime.scheduler.DefaultExecutionGraphFactory'
CC = 'org.apache.flink.runtime.checkpoint.CheckpointCoordinator'
RPC = 'org.apache.flink.runtime.rpc.'
SEE = 'org.apache.flink.streaming.api.environment.StreamExecutionEnvironment'

# (frame class, frame method regex, bytecode callee regex, printed callee glob or None, what is
# called). A call site of the frame's method whose callee (`owner.name`, `owner.<init>` for a
# constructor) the callee regex finds is read; the printed callee glob is the `callee` of the
# entries (the frame printed just above, `new <class>` for a throwable constructed there). None:
# any frame above (other calls of that method were not read).
SPEC = [
    (T, r'run', r'Task\.doRun$', T + '.doRun', 'doRun()'),
    (T, r'doRun', r'(AbstractInvokable|TaskInvokable)\.invoke$', '*.invoke', 'invokable.invoke()'),
    (T, r'doRun', r'Task\.restoreAndInvoke$', T + '.restoreAndInvoke', 'restoreAndInvoke(…)'),
    (T, r'restoreAndInvoke', r'Task\.runWithSystemExitMonitoring$', T + '.runWithSystemExitMonitoring', 'runWithSystemExitMonitoring(…) (restore, invoke, cleanUp or cancel)'),
    (T, r'runWithSystemExitMonitoring', r'RunnableWithException\.run$', None, 'action.run()'),
    (ST, r'invoke', r'StreamTask\.runWithCleanUpOnFail$', ST + '.runWithCleanUpOnFail', 'runWithCleanUpOnFail(this::executeInvoke)'),
    (ST, r'invoke', r'StreamTask\.runMailboxLoop$', ST + '.runMailboxLoop', 'runMailboxLoop()'),
    (ST, r'runWithCleanUpOnFail', r'RunnableWithException\.run$', '*.{executeInvoke,run}', 'run.run()'),
    (ST, r'executeInvoke', r'StreamTask\.runMailboxLoop$', ST + '.runMailboxLoop', 'runMailboxLoop()'),
    (ST, r'runMailboxLoop', r'MailboxProcessor\.runMailboxLoop$', MP + '.runMailboxLoop', 'mailboxProcessor.runMailboxLoop()'),
    (MP, r'runMailboxLoop', r'MailboxDefaultAction\.runDefaultAction$', '*.{processInput,runDefaultAction}', 'mailboxDefaultAction.runDefaultAction(…)'),
    (ST, r'processInput', r'(InputProcessor|StreamInputProcessor)\.processInput$', '*.processInput', 'inputProcessor.processInput()'),
    (ST, r'triggerCheckpointOnBarrier', r'StreamTask\.performCheckpoint$', ST + '.performCheckpoint', 'performCheckpoint(…)'),
    (ST, r'performCheckpoint', r'ActionExecutor\.runThrowing$', '*.runThrowing', 'actionExecutor.runThrowing(…)'),
    (ST, r'lambda\$performCheckpoint\$\d+', r'SubtaskCheckpointCoordinator\.checkpointState$', '*.checkpointState', 'subtaskCheckpointCoordinator.checkpointState(…)'),
    ('org.apache.flink.streaming.runtime.tasks.StreamTaskActionExecutor$1', r'runThrowing', r'ThrowingRunnable\.run$', None, 'runnable.run()'),
    (SC, r'checkpointState', r'\.takeSnapshotSync$', SC + '.takeSnapshotSync', 'takeSnapshotSync(…)'),
    (SC, r'takeSnapshotSync', r'\.buildOperatorSnapshotFutures$', SC + '.buildOperatorSnapshotFutures', 'buildOperatorSnapshotFutures(…)'),
    (SC, r'takeSnapshotSync', r'OperatorChain\.snapshotState$', '*OperatorChain.snapshotState', 'operatorChain.snapshotState(…)'),
    (ROC, r'snapshotState', r'RegularOperatorChain\.buildOperatorSnapshotFutures$', ROC + '.buildOperatorSnapshotFutures', 'buildOperatorSnapshotFutures(…)'),
    (ROC, r'buildOperatorSnapshotFutures', r'RegularOperatorChain\.checkpointStreamOperator$', ROC + '.checkpointStreamOperator', 'checkpointStreamOperator(…)'),
    (ROC, r'checkpointStreamOperator', r'StreamOperator\.snapshotState$', '*.snapshotState', 'op.snapshotState(…)'),
    (SC, r'buildOperatorSnapshotFutures', r'\.checkpointStreamOperator$', SC + '.checkpointStreamOperator', 'checkpointStreamOperator(…)'),
    (SC, r'buildOperatorSnapshotFutures', r'OperatorChain\.snapshotState$', '*OperatorChain.snapshotState', 'operatorChain.snapshotState(…)'),
    (SC, r'checkpointStreamOperator', r'StreamOperator\.snapshotState$', '*.snapshotState', 'op.snapshotState(…)'),
    ('org.apache.flink.streaming.api.operators.AbstractStreamOperator', r'snapshotState', r'StreamOperatorStateHandler\.snapshotState$', SOSH + '.snapshotState', 'stateHandler.snapshotState(…)'),
    (SOSH, r'snapshotState', r'StreamOperatorStateHandler\.snapshotState$', SOSH + '.snapshotState', 'snapshotState(…) (the private overload)'),
    (SOSH, r'snapshotState', r'\.snapshot$', '*.snapshot', 'a state backend\'s snapshot(…)'),
    (SOSH, r'snapshotState', r'CheckpointException\.<init>$', 'new org.apache.flink.runtime.checkpoint.CheckpointException', 'new CheckpointException(…) (checkpoint declined)'),
    ('org.apache.flink.streaming.runtime.tasks.SourceStreamTask$LegacySourceFunctionThread', r'run', r'StreamSource\.run$', '*.StreamSource.run', 'the source operator\'s run(…)'),
    ('org.apache.flink.streaming.runtime.io.StreamOneInputProcessor', r'processInput', r'\.emitNext$', '*.emitNext', 'input.emitNext(output)'),
    (ASTNI, r'emitNext', r'\.pollNext$', '*.pollNext', 'checkpointedInputGate.pollNext()'),
    (ASTNI, r'emitNext', r'AbstractStreamTaskNetworkInput\.processElement$', ASTNI + '.processElement', 'processElement(…)'),
    (ASTNI, r'processElement', r'\.emitRecord$', '*.emitRecord', 'output.emitRecord(…)'),
    (STNI, r'emitNext', r'\.pollNext$', '*.pollNext', 'checkpointedInputGate.pollNext()'),
    (STNI, r'emitNext', r'StreamTaskNetworkInput\.processElement$', STNI + '.processElement', 'processElement(…)'),
    (STNI, r'processElement', r'\.emitRecord$', '*.emitRecord', 'output.emitRecord(…)'),
    ('org.apache.flink.streaming.runtime.tasks.OneInputStreamTask$StreamTaskNetworkOutput', r'emitRecord', r'\.processElement$|ThrowingConsumer\.accept$', None, 'operator.processElement(record) (from 1.17: recordProcessor.accept(record))'),
    ('org.apache.flink.streaming.runtime.tasks.CopyingChainingOutput', r'pushToOperator', r'\.processElement$|ThrowingConsumer\.accept$', None, 'input.processElement(copy) (from 1.17: recordProcessor.accept(copy))'),
    ('org.apache.flink.streaming.runtime.tasks.ChainingOutput', r'pushToOperator', r'\.processElement$|ThrowingConsumer\.accept$', None, 'input.processElement(record) (from 1.17: recordProcessor.accept(record))'),
    ('org.apache.flink.streaming.runtime.tasks.OperatorChain$CopyingChainingOutput', r'pushToOperator', r'\.processElement$', '*.processElement', 'operator.processElement(copy)'),
    ('org.apache.flink.streaming.runtime.tasks.OperatorChain$ChainingOutput', r'pushToOperator', r'\.processElement$', '*.processElement', 'operator.processElement(record)'),
    (EFH1, r'getFailureHandlingResult', r'ExecutionFailureHandler\.handleFailure$', EFH1 + '.handleFailure', 'handleFailure(…)'),
    (EFH1, r'handleFailure', r'JobException\.<init>$', 'new org.apache.flink.runtime.JobException', 'new JobException(…) (recovery suppressed)'),
    (EFH2, r'getFailureHandlingResult', r'ExecutionFailureHandler\.handleFailure$', EFH2 + '.handleFailure', 'handleFailure(…)'),
    (EFH2, r'handleFailure', r'JobException\.<init>$', 'new org.apache.flink.runtime.JobException', 'new JobException(…) (recovery suppressed)'),
    (DS, r'recordTaskFailure', r'ExecutionFailureHandler\.getFailureHandlingResult$', '*.ExecutionFailureHandler.getFailureHandlingResult', 'executionFailureHandler.getFailureHandlingResult(…)'),
    (DS, r'handleTaskFailure', r'ExecutionFailureHandler\.getFailureHandlingResult$', '*.ExecutionFailureHandler.getFailureHandlingResult', 'executionFailureHandler.getFailureHandlingResult(…)'),
    (JM, r'updateTaskExecutionState', r'SchedulerNG\.updateTaskExecutionState$', '*.updateTaskExecutionState', 'schedulerNG.updateTaskExecutionState(…)'),
    # Added for the frames the lab's outputs print (issue 12 item 8): the JobManager's failure
    # path (scheduler, failover, RPC actors), its restore path (JobMaster and scheduler creation,
    # savepoint restore), the task's setup and source, and the client's execute().
    (EFH2, r'getFailureHandlingResult', r'ExecutionFailureHandler\.handleFailureAndReport$', EFH2 + '.handleFailureAndReport', 'handleFailureAndReport(…)'),
    (EFH2, r'handleFailureAndReport', r'ExecutionFailureHandler\.handleFailure$', EFH2 + '.handleFailure', 'handleFailure(…)'),
    (DS, r'handleTaskFailure', r'DefaultScheduler\.recordTaskFailure$', DS + '.recordTaskFailure', 'recordTaskFailure(…)'),
    (DS, r'onTaskFailed', r'DefaultScheduler\.handleTaskFailure$', DS + '.handleTaskFailure', 'handleTaskFailure(…)'),
    (DS, r'maybeHandleTaskFailure', r'DefaultScheduler\.handleTaskFailure$', DS + '.handleTaskFailure', 'handleTaskFailure(…)'),
    (DS, r'updateTaskExecutionStateInternal', r'DefaultScheduler\.maybeHandleTaskFailure$', DS + '.maybeHandleTaskFailure', 'maybeHandleTaskFailure(…)'),
    (SB, r'onTaskExecutionStateUpdate', r'\.onTaskFailed$', '*.onTaskFailed', 'onTaskFailed(…)'),
    (SB, r'updateTaskExecutionState', r'SchedulerBase\.onTaskExecutionStateUpdate$', SB + '.onTaskExecutionStateUpdate', 'onTaskExecutionStateUpdate(…)'),
    (SB, r'updateTaskExecutionState', r'\.updateTaskExecutionStateInternal$', '*.updateTaskExecutionStateInternal', 'updateTaskExecutionStateInternal(…)'),
    (RPC + 'akka.AkkaRpcActor', r'handleRpcMessage', r'AkkaRpcActor\.handleRpcInvocation$', RPC + 'akka.AkkaRpcActor.handleRpcInvocation', 'handleRpcInvocation(…)'),
    (RPC + 'akka.AkkaRpcActor', r'handleMessage', r'\.handleRpcMessage$', '*.handleRpcMessage', 'handleRpcMessage(…)'),
    (RPC + 'akka.FencedAkkaRpcActor', r'handleRpcMessage', r'AkkaRpcActor\.handleRpcMessage$', RPC + 'akka.AkkaRpcActor.handleRpcMessage', 'super.handleRpcMessage(…)'),
    (RPC + 'pekko.PekkoRpcActor', r'handleRpcMessage', r'PekkoRpcActor\.handleRpcInvocation$', RPC + 'pekko.PekkoRpcActor.handleRpcInvocation', 'handleRpcInvocation(…)'),
    (RPC + 'pekko.PekkoRpcActor', r'handleMessage', r'\.handleRpcMessage$', '*.handleRpcMessage', 'handleRpcMessage(…)'),
    (RPC + 'pekko.FencedPekkoRpcActor', r'handleRpcMessage', r'PekkoRpcActor\.handleRpcMessage$', RPC + 'pekko.PekkoRpcActor.handleRpcMessage', 'super.handleRpcMessage(…)'),
    ('org.apache.flink.runtime.jobmaster.factories.DefaultJobMasterServiceFactory', r'internalCreateJobMasterService', r'JobMaster\.<init>$', JM + '.<init>', 'new JobMaster(…)'),
    (JM, r'<init>', r'JobMaster\.createScheduler$', JM + '.createScheduler', 'createScheduler(…)'),
    (JM, r'createScheduler', r'\.createScheduler$', '*.createScheduler', 'slotPoolServiceSchedulerFactory.createScheduler(…)'),
    (DS, r'<init>', r'SchedulerBase\.<init>$', SB + '.<init>', 'super(…) (the SchedulerBase constructor)'),
    (SB, r'<init>', r'SchedulerBase\.createAndRestoreExecutionGraph$', SB + '.createAndRestoreExecutionGraph', 'createAndRestoreExecutionGraph(…)'),
    (SB, r'createAndRestoreExecutionGraph', r'\.createAndRestoreExecutionGraph$', '*.createAndRestoreExecutionGraph', 'executionGraphFactory.createAndRestoreExecutionGraph(…)'),
    (DEGF, r'createAndRestoreExecutionGraph', r'DefaultExecutionGraphFactory\.tryRestoreExecutionGraphFromSavepoint$', DEGF + '.tryRestoreExecutionGraphFromSavepoint', 'tryRestoreExecutionGraphFromSavepoint(…)'),
    (DEGF, r'tryRestoreExecutionGraphFromSavepoint', r'CheckpointCoordinator\.restoreSavepoint$', CC + '.restoreSavepoint', 'checkpointCoordinator.restoreSavepoint(…)'),
    (CC, r'restoreSavepoint', r'Checkpoints\.loadAndValidateCheckpoint$', 'org.apache.flink.runtime.checkpoint.Checkpoints.loadAndValidateCheckpoint', 'Checkpoints.loadAndValidateCheckpoint(…)'),
    (CC, r'restoreSavepoint', r'\.resolveCheckpoint$', '*.resolveCheckpoint', 'checkpointStorageView.resolveCheckpoint(…)'),
    (T, r'doRun', r'Task\.setupPartitionsAndGates$', T + '.setupPartitionsAndGates', 'setupPartitionsAndGates(…)'),
    ('org.apache.flink.runtime.io.network.partition.ResultPartitionFactory', r'lambda\$createBufferPoolFactory\$\d+', r'\.createBufferPool$', '*.createBufferPool', 'bufferPoolFactory.createBufferPool(…)'),
    ('org.apache.flink.streaming.api.operators.SourceOperator', r'emitNext', r'\.pollNext$', '*.pollNext', 'sourceReader.pollNext(…)'),
    ('org.apache.flink.runtime.jobmaster.JobResult', r'toJobExecutionResult', r'JobExecutionException\.<init>$', 'new org.apache.flink.runtime.client.JobExecutionException', 'new JobExecutionException(…) (the job failed)'),
    (SEE, r'execute', r'StreamExecutionEnvironment\.executeAsync$', SEE + '.executeAsync', 'executeAsync(…)'),
    (SEE, r'execute', r'StreamExecutionEnvironment\.execute$', '*.execute', 'execute(streamGraph) (overridden by the local and remote environments)'),
    (SEE, r'executeAsync', r'FlinkException\.<init>$', 'new org.apache.flink.util.FlinkException', 'new FlinkException(…) (failed to execute the job)'),
    (SEE, r'executeAsync', r'StreamExecutionEnvironment\.getPipelineExecutor$', SEE + '.getPipelineExecutor', 'getPipelineExecutor()'),
    (SEE, r'getPipelineExecutor', r'\.getExecutorFactory$', '*.getExecutorFactory', 'executorServiceLoader.getExecutorFactory(…)'),
    (SEE, r'clean', r'ClosureCleaner\.clean$', 'org.apache.flink.api.java.ClosureCleaner.clean', 'ClosureCleaner.clean(…)'),
]

# Classes read besides those of SPEC (for --exists and future entries; javap skips the classes
# a release does not have).
EXTRA_CLASSES = [
    'org.apache.flink.streaming.api.operators.StreamSource',
    'org.apache.flink.runtime.scheduler.SchedulerBase',
    'org.apache.flink.runtime.checkpoint.CheckpointCoordinator',
    'org.apache.flink.runtime.checkpoint.CheckpointFailureManager',
]


def classes():
    seen = []
    for c in [s[0] for s in SPEC] + EXTRA_CLASSES:
        if c not in seen:
            seen.append(c)
    return seen


# Releases read from real traces that name their flink-dist jar (log4j2 extended frames).
OBS_NOTE = ("; 1.13.5 as printed in a log4j2 trace naming flink-dist_2.11-1.13.5.jar "
            "(stored GitHub file id 63363281864)")
# (frame, line) printed by 1.13.5 where 1.13.6 prints the same line.
OBSERVED = {
    ('org.apache.flink.runtime.taskmanager.Task.run', 566),
    ('org.apache.flink.runtime.taskmanager.Task.doRun', 779),
    ('org.apache.flink.streaming.runtime.tasks.StreamTask.invoke', 623),
    ('org.apache.flink.streaming.runtime.tasks.StreamTask.runWithCleanUpOnFail', 650),
    ('org.apache.flink.streaming.runtime.tasks.StreamTask.executeInvoke', 639),
    ('org.apache.flink.streaming.runtime.tasks.StreamTask.runMailboxLoop', 684),
    ('org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor.runMailboxLoop', 204),
    ('org.apache.flink.streaming.runtime.tasks.StreamTask.processInput', 423),
    ('org.apache.flink.streaming.runtime.io.StreamOneInputProcessor.processInput', 66),
}
# (version, trace file, note): every SPEC frame such a trace prints is an entry for that version.
OBS_TRACES = [
    ('1.12.2', 'tests/forms/yarn-aggregated.txt',
     '; 1.12.2 as printed in a real log4j2 trace naming flink-dist_2.11-1.12.2.jar '
     '(tests/forms/yarn-aggregated.txt)'),
]


# --- the release jars --------------------------------------------------------------------------

def log(*a):
    print('[line-numbers]', *a, file=sys.stderr, flush=True)


def archive_of(v):
    """The downloaded PyPI package of release v in DL, if any (the names scripts/lab.sh uses)."""
    pkg = package(v)
    names = [f'{pkg}-{v}.tar.gz', f'{pkg.replace("-", "_")}-{v}.tar.gz']
    for n in names:
        if os.path.isfile(os.path.join(DL, n)):
            return os.path.join(DL, n)
    if os.path.isdir(DL):
        for n in sorted(os.listdir(DL)):
            if n.startswith(f'{pkg.replace("-", "_")}-{v}-') and n.endswith('.whl'):
                return os.path.join(DL, n)
    return None


def download(v):
    os.makedirs(DL, exist_ok=True)
    cmd = [sys.executable, '-m', 'pip', 'download', '-q', '--no-deps', f'{package(v)}=={v}', '-d', DL]
    if package(v) == 'apache-flink':
        cmd[5:5] = ['--no-binary', ':all:']  # the sdist holds deps/lib; the wheels do not
    log(f'downloading {package(v)}=={v} into {DL}')
    r = subprocess.run(cmd, capture_output=True, text=True)
    # pip may fail preparing an sdist's metadata after saving it: the archive is what counts.
    if archive_of(v) is None:
        sys.exit(f'pip download gave no archive for {v}:\n{r.stdout}{r.stderr}')


def release_dir(v, fetch):
    """WORK/<v> with flink-dist.jar, the RPC jar embedded in it if any, and classes.txt (the
    entries of both jars); None if the release's archive is missing and fetch is False."""
    d = os.path.join(WORK, v)
    if os.path.isfile(os.path.join(d, '.complete')):
        return d
    archive = archive_of(v)
    if archive is None:
        if not fetch:
            return None
        download(v)
        archive = archive_of(v)
    log(f'extracting the flink-dist jar of {v} from {os.path.basename(archive)}')
    os.makedirs(WORK, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f'.{v}.', dir=WORK)
    dist = os.path.join(tmp, 'flink-dist.jar')
    pat = re.compile(r'(?:^|/)lib/flink-dist[^/]*\.jar$')
    found = None
    if archive.endswith('.whl'):
        with zipfile.ZipFile(archive) as z:
            for n in sorted(z.namelist()):
                if pat.search(n):
                    found = n
                    with z.open(n) as src, open(dist, 'wb') as dst:
                        shutil.copyfileobj(src, dst)
                    break
    else:
        with tarfile.open(archive) as t:
            for m in t:
                if m.isfile() and pat.search(m.name):
                    found = m.name
                    with t.extractfile(m) as src, open(dist, 'wb') as dst:
                        shutil.copyfileobj(src, dst)
                    break
    if found is None:
        shutil.rmtree(tmp)
        sys.exit(f'no flink-dist jar in {archive}')
    names = []
    with zipfile.ZipFile(dist) as z:
        names += z.namelist()
        for n in z.namelist():
            if re.fullmatch(r'flink-rpc-(akka|pekko)[^/]*\.jar', n):
                with z.open(n) as src, open(os.path.join(tmp, 'flink-rpc.jar'), 'wb') as dst:
                    shutil.copyfileobj(src, dst)
                with zipfile.ZipFile(os.path.join(tmp, 'flink-rpc.jar')) as r:
                    names += r.namelist()
    with open(os.path.join(tmp, 'classes.txt'), 'w') as f:
        f.write(''.join(n + '\n' for n in names))
    with open(os.path.join(tmp, 'source.txt'), 'w') as f:
        f.write(f'{os.path.basename(archive)} {found}\n')
    open(os.path.join(tmp, '.complete'), 'w').close()
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    return d


# --- call sites from javap ---------------------------------------------------------------------

INVOKE = re.compile(r"^\s*(\d+): invoke\w+\s+#\d+(?:,\s*\d+)?\s+// (Method|InterfaceMethod|InvokeDynamic) (\S+)")
LINE = re.compile(r"^\s*line (\d+): (\d+)")
CLASS = re.compile(r'^(?:[\w ]*\s)?(?:class|interface|enum)\s+([\w.$]+)')


def method_name(header, cls):
    h = header.strip().rstrip(';')
    if h == 'static {}':
        return '<clinit>'
    name = h.split('(')[0].split()[-1]
    if name == cls or name.endswith('.' + cls.split('.')[-1]) or name == cls.replace('$', '.'):
        return '<init>'
    if '.' in name:
        return '<init>'
    return name


def parse_javap(text):
    """(class, method, line, callee) per invoke instruction, in the order javap prints them;
    callee is `owner.name` (`indy:<name>` for invokedynamic)."""
    rows = []
    cls = meth = None
    calls, lines = [], []

    def flush():
        if meth is not None and lines:
            table = sorted((pc, ln) for ln, pc in lines)
            for off, callee in calls:
                ln = None
                for pc, l in table:
                    if pc <= off:
                        ln = l
                    else:
                        break
                if ln is not None:
                    rows.append((cls, meth, ln, callee))

    for raw in text.splitlines():
        if raw.startswith('Compiled from "'):
            continue
        m = CLASS.match(raw)
        if m and not raw.startswith(' '):
            flush()
            meth, calls, lines = None, [], []
            cls = m.group(1)
            continue
        member = raw.startswith('  ') and not raw.startswith('   ')
        if member and raw.rstrip().endswith(';') or raw.strip() == 'static {};':
            if member:
                flush()
                calls, lines = [], []
                meth = method_name(raw, cls)
                continue
        m = INVOKE.match(raw)
        if m:
            target = m.group(3)
            if m.group(2) == 'InvokeDynamic':
                callee = 'indy:' + target.split(':')[1]
            else:
                t = target.split(':')[0].replace('"', '')
                if '.' in t:
                    owner, name = t.rsplit('.', 1)
                    owner = owner.replace('/', '.')
                else:
                    owner, name = cls, t
                callee = owner + '.' + name
            calls.append((int(m.group(1)), callee))
            continue
        m = LINE.match(raw)
        if m:
            lines.append((int(m.group(1)), int(m.group(2))))
    flush()
    return rows


def call_sites(v, d):
    """The call sites of classes() in release v, cached in d per class list."""
    cs = classes()
    tag = hashlib.sha256('\n'.join(cs).encode()).hexdigest()[:12]
    cache = os.path.join(d, f'calls-{tag}.tsv')
    if not os.path.isfile(cache):
        with open(os.path.join(d, 'classes.txt')) as f:
            present = set(f.read().split())
        todo = [c for c in cs if c.replace('.', '/') + '.class' in present]
        cp = os.path.join(d, 'flink-dist.jar')
        if os.path.isfile(os.path.join(d, 'flink-rpc.jar')):
            cp += os.pathsep + os.path.join(d, 'flink-rpc.jar')
        log(f'javap of {len(todo)} classes of {v}')
        r = subprocess.run(['javap', '-c', '-l', '-p', '-cp', cp] + todo,
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f'javap failed on {v}:\n{r.stderr}')
        with open(cache + '.tmp', 'w') as f:
            for row in parse_javap(r.stdout):
                f.write('\t'.join(map(str, row)) + '\n')
        os.rename(cache + '.tmp', cache)
    with open(cache) as f:
        return [tuple(l.rstrip('\n').split('\t')) for l in f]


# --- entries -----------------------------------------------------------------------------------

def glob_re(g):
    out, i = '', 0
    while i < len(g):
        c = g[i]
        if c == '*':
            out += '.*'
        elif c == '{':
            j = g.index('}', i)
            out += '(?:' + '|'.join(re.escape(a) for a in g[i + 1:j].split(',')) + ')'
            i = j
        else:
            out += re.escape(c)
        i += 1
    return '^' + out + '$'


def observed_from_traces():
    """{(class, method, callee glob, what): {line: [(version, note)]}} from OBS_TRACES."""
    found = {}
    for v, path, note in OBS_TRACES:
        blocks, cur = [], None
        with open(os.path.join(ROOT, path)) as f:
            for raw in f:
                m = re.search(r'\bat ([\w.$]+)\.([\w$<>]+)\((\w+\.java):(\d+)\)', raw)
                if m:
                    if cur is not None:
                        cur[1].append((m.group(1), m.group(2), int(m.group(4))))
                    continue
                h = re.match(r'^(?:Caused by: )?([\w.$]+(?:Exception|Error|Throwable)):', raw.strip())
                cur = (h.group(1), []) if h else None
                if cur is not None:
                    blocks.append(cur)
        for exc, frames in blocks:
            for i, (c, m, line) in enumerate(frames):
                above = 'new ' + exc if i == 0 else frames[i - 1][0] + '.' + frames[i - 1][1]
                for (sc, sm, _callee, pc, what) in SPEC:
                    if sc != c or not re.fullmatch(sm, m):
                        continue
                    if pc is None:
                        if i == 0:
                            continue
                    elif not re.match(glob_re(pc), above):
                        continue
                    found.setdefault((c, m, pc, what), {}).setdefault(line, []).append((v, note))
    return found


def groups_of(sites):
    """{(class, method, callee glob, what): {line: [versions]}}, in the order first met (by
    release, then SPEC, then call site)."""
    groups = collections.OrderedDict()
    for v, rows in sites.items():
        for (c, m, callee, pc, what) in SPEC:
            for (rc, rm, ln, rcallee) in rows:
                if rc == c and re.fullmatch(m, rm) and re.search(callee, rcallee):
                    k = (c, rm, pc, what)
                    groups.setdefault(k, collections.OrderedDict()).setdefault(int(ln), []).append(v)
    notes = {}
    for k, per in observed_from_traces().items():
        for line, vs in per.items():
            for v, note in vs:
                groups.setdefault(k, collections.OrderedDict()).setdefault(line, []).append(v)
                notes[(k, line)] = note
    return groups, notes


def toml_section(groups, notes, vers):
    out = ['checked = [' + ', '.join(f'"{v}"' for v in vers) + ']\n']
    n = 0
    for (c, meth, pc, what), per in groups.items():
        simple = c.split('.')[-1]
        file = simple.split('$')[0] + '.java'
        for line, vs in sorted(per.items(), key=lambda x: key(sorted(set(x[1]), key=key)[0])):
            vs = sorted(set(vs), key=key)
            note = ''
            if (c + '.' + meth, line) in OBSERVED and '1.13.6' in vs:
                vs = sorted(set(vs) | {'1.13.5'}, key=key)
                note = OBS_NOTE
            note += notes.get(((c, meth, pc, what), line), '')
            n += 1
            e = ['[[line]]', f'frame = "{c}.{meth}"']
            if pc:
                e.append(f'callee = "{pc}"')
            e.append(f'file = "{file}"')
            e.append(f'line = {line}')
            e.append('versions = [' + ', '.join(f'"{v}"' for v in vs) + ']')
            if any(v in vers for v in vs):
                src = f'{simple}.{meth} calls {what} there (LineNumberTable of {simple}.class in flink-dist){note}'
            else:
                src = f'{simple}.{meth} calls {what} there{note}'.replace('there; ', 'there: ')
            assert '"' not in src, src
            e.append(f'source = "{src}"'.replace('\\', ''))
            out.append('\n'.join(e) + '\n')
    return out, n


LINE_HEADER = '# Line numbers (generated by scripts/line-numbers.py; see knowledge/line-numbers.md).'
RELEASE_HEADER = '# Releases.'


def write_hints(section):
    with open(HINTS) as f:
        text = f.read()
    checked, entries = section[0], section[1:]
    head, sep, rest = text.partition('\n# Line numbers (')
    if not sep:
        sys.exit(f'{HINTS}: no "# Line numbers (" line')
    _, sep, tail = rest.partition('\n' + RELEASE_HEADER + '\n')
    if not sep:
        sys.exit(f'{HINTS}: no "{RELEASE_HEADER}" line after the line numbers')
    head, n = re.subn(r'(?m)^checked = \[.*\]\n', lambda _: checked, head)
    if n != 1:
        sys.exit(f'{HINTS}: expected one `checked = [...]` line before the line numbers')
    text = head + '\n' + LINE_HEADER + '\n\n' + '\n'.join(entries) + '\n' + RELEASE_HEADER + '\n' + tail
    with open(HINTS, 'w') as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--releases', help='comma-separated releases to read (default: all of RELEASES)')
    ap.add_argument('--no-download', action='store_true', help='read only the releases in the cache')
    ap.add_argument('--matrix', action='store_true', help='print the table per frame, write nothing')
    ap.add_argument('--exists', nargs='+', metavar='CLASS', help='print where classes exist, write nothing')
    a = ap.parse_args()
    wanted = a.releases.split(',') if a.releases else RELEASES
    dirs = {}
    for v in sorted(wanted, key=key):
        d = release_dir(v, not a.no_download)
        if d is None:
            log(f'{v}: not in {DL}, skipped (--no-download)')
        else:
            dirs[v] = d
    if a.exists:
        sets = {}
        for v, d in dirs.items():
            with open(os.path.join(d, 'classes.txt')) as f:
                sets[v] = set(f.read().split())
        for c in a.exists:
            p = c.replace('.', '/') + '.class'
            pres = [v for v in dirs if p in sets[v]]
            row = ''.join('X' if p in sets[v] else '.' for v in dirs)
            print(f'{row}  {c}  first={pres[0] if pres else None} last={pres[-1] if pres else None}')
        print(' '.join(dirs))
        return
    sites = {v: call_sites(v, d) for v, d in dirs.items()}
    vers = [v for v in dirs if sites[v]]
    groups, notes = groups_of(sites)
    if a.matrix:
        for k, per in groups.items():
            print(k[0].split('.')[-1] + '.' + k[1], '<-', k[2] or '')
            for line, vs in sorted(per.items()):
                print('   ', line, ' '.join(sorted(set(vs), key=key)))
        return
    if set(vers) != set(RELEASES):
        log('warning: not every release of RELEASES was read; `checked` says which were')
    section, n = toml_section(groups, notes, vers)
    write_hints(section)
    frames = {(c, m) for (c, m, _, _) in groups}
    log(f'{HINTS}: {n} [[line]] entries in {len(groups)} groups over {len(frames)} frames, '
        f'{len(vers)} releases checked')


if __name__ == '__main__':
    main()
