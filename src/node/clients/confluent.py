"""confluent-kafka (librdkafka) against the glassbox Node host, driven by src/node/*.test.ts and
bench/clients.bench.ts. Each command prints one JSON object on stdout.

  metadata BOOTSTRAP                      AdminClient.list_topics: brokers, controller, leaders, ISRs
  produce BOOTSTRAP TOPIC COUNT           an idempotent acks=all Producer: COUNT keyed records, each
                                          value `confluent-<i>`; how many were delivered
  read BOOTSTRAP TOPIC COUNT              a Consumer assigned every partition from the beginning
                                          reads COUNT records: [partition, offset, value] each
  admin BOOTSTRAP TOPIC                   AdminClient: create TOPIC (2 partitions), grow it to 4,
                                          alter its retention.ms, delete it
  consume BOOTSTRAP GROUP TOPIC EXPECTED  one Consumer in GROUP reads EXPECTED records, commits, leaves
  pair BOOTSTRAP GROUP TOPIC EXPECTED     two Consumers in one GROUP share TOPIC's partitions
  latency BOOTSTRAP TOPIC RATE COUNT      an idempotent acks=all Producer at RATE records/s: the
                                          produce latency of each record (send to delivery report)
                                          and its end-to-end latency (send to a Consumer's poll)
  acks BOOTSTRAP TOPIC COUNT RATE         an idempotent acks=all Producer of COUNT records "r-<i>"
                                          at RATE records/s; one JSON line per acknowledged record
                                          ([partition, offset, value]) as its delivery report comes,
                                          then one {"done": ...} line (the crash test reads it live)
  acks ... RATE TIMEOUT_MS [PREFIX]       the same with message.timeout.ms TIMEOUT_MS (default 5000),
                                          values "<PREFIX>-<i>" (default r)
  follow BOOTSTRAP GROUP TOPIC            one Consumer in GROUP prints each record it reads as a JSON
                                          line ([partition, offset, value]), committing as it goes,
                                          until its stdin closes; then commitSync and one
                                          {"done": ..., "committed": ...} line
  committed BOOTSTRAP GROUP TOPIC N       GROUP's committed offsets of TOPIC's partitions 0..N-1
"""
import json
import sys
import threading
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient


def metadata(bootstrap):
    md = AdminClient({'bootstrap.servers': bootstrap}).list_topics(timeout=15)
    return {
        'clusterId': md.cluster_id,
        'controllerId': md.controller_id,
        'brokers': sorted(({'id': b.id, 'host': b.host, 'port': b.port} for b in md.brokers.values()),
                          key=lambda b: b['id']),
        'topics': {
            t.topic: sorted(({'partition': p.id, 'leader': p.leader, 'replicas': list(p.replicas),
                              'isrs': list(p.isrs), 'error': str(p.error) if p.error else None}
                             for p in t.partitions.values()), key=lambda p: p['partition'])
            for t in md.topics.values()
        },
    }


def consumer(bootstrap, group, name):
    return Consumer({
        'bootstrap.servers': bootstrap,
        'group.id': group,
        'client.id': name,
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': False,
    })


def committed_offsets(c, topic, partitions):
    out = {}
    for tp in c.committed([TopicPartition(topic, p) for p in partitions], timeout=15):
        if tp.error:
            raise KafkaException(tp.error)
        out[str(tp.partition)] = tp.offset
    return out


def consume(bootstrap, group, topic, expected, timeout=40.0):
    """Reads until `expected` records have arrived, commits them (commitSync), then leaves."""
    c = consumer(bootstrap, group, 'confluent-' + group)
    c.subscribe([topic])
    seen = []
    deadline = time.time() + timeout
    while len(seen) < expected and time.time() < deadline:
        for m in c.consume(num_messages=500, timeout=0.2):
            if not m.error():
                seen.append([m.partition(), m.offset()])
    if seen:
        c.commit(asynchronous=False)
    partitions = sorted({p for p, _ in seen} | {tp.partition for tp in c.assignment()})
    result = {'records': seen, 'committed': committed_offsets(c, topic, partitions)}
    c.close()
    return result


def produce(bootstrap, topic, count):
    p = Producer({'bootstrap.servers': bootstrap, 'acks': 'all', 'enable.idempotence': True,
                  'client.id': 'confluent-producer', 'linger.ms': 5})
    delivered = [0]
    failed = []

    def on_delivery(err, msg):
        if err:
            failed.append(str(err))
        else:
            delivered[0] += 1

    for i in range(count):
        while True:
            try:
                p.produce(topic, key=b'k%d' % (i % 100), value=b'confluent-%d' % i, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.05)
        p.poll(0)
    p.flush(60)
    return {'delivered': delivered[0], 'failed': failed[:5]}


def read(bootstrap, topic, expected, timeout=40.0):
    c = Consumer({'bootstrap.servers': bootstrap, 'group.id': 'confluent-read', 'client.id': 'confluent-reader',
                  'enable.auto.commit': False, 'auto.offset.reset': 'earliest'})
    md = c.list_topics(topic, timeout=15)
    c.assign([TopicPartition(topic, p, 0) for p in md.topics[topic].partitions])
    seen = []
    deadline = time.time() + timeout
    while len(seen) < expected and time.time() < deadline:
        for m in c.consume(num_messages=1000, timeout=0.2):
            if not m.error():
                seen.append([m.partition(), m.offset(), m.value().decode()])
    c.close()
    return {'records': seen}


def admin(bootstrap, topic):
    from confluent_kafka.admin import ConfigResource, NewPartitions, NewTopic
    a = AdminClient({'bootstrap.servers': bootstrap})
    steps = {}
    for f in a.create_topics([NewTopic(topic, num_partitions=2, replication_factor=3)]).values():
        f.result(15)
    steps['created'] = len(a.list_topics(topic, timeout=10).topics[topic].partitions)
    for f in a.create_partitions([NewPartitions(topic, 4)]).values():
        f.result(15)
    steps['grown'] = len(a.list_topics(topic, timeout=10).topics[topic].partitions)
    res = ConfigResource('topic', topic, set_config={'retention.ms': '120000'})
    for f in a.alter_configs([res]).values():
        f.result(15)
    described = list(a.describe_configs([ConfigResource('topic', topic)]).values())[0].result(15)
    steps['retention.ms'] = described['retention.ms'].value
    for f in a.delete_topics([topic], operation_timeout=15).values():
        f.result(15)
    steps['deleted'] = topic not in a.list_topics(timeout=10).topics
    return steps


def pair(bootstrap, group, topic, expected, timeout=40.0):
    """Two consumers of one group, polled in turn; each commits what it read when a partition is
    revoked from it (so a partition that moves is not read twice) and at the end."""
    members = []
    for i in range(2):
        c = consumer(bootstrap, group, 'confluent-%s-%d' % (group, i))
        member = {'consumer': c, 'records': [], 'revoked': 0}

        def on_revoke(cons, partitions, member=member):
            member['revoked'] += 1
            if partitions:
                try:
                    cons.commit(asynchronous=False)
                except KafkaException:
                    pass  # nothing consumed yet: nothing to commit

        c.subscribe([topic], on_revoke=on_revoke)
        members.append(member)
    deadline = time.time() + timeout

    def total():
        return sum(len(m['records']) for m in members)

    while time.time() < deadline:
        for m in members:
            for msg in m['consumer'].consume(num_messages=500, timeout=0.05):
                if not msg.error():
                    m['records'].append([msg.partition(), msg.offset()])
        assigned = [m['consumer'].assignment() for m in members]
        if total() >= expected and all(assigned):
            break
    result = {'members': []}
    for m in members:
        c = m['consumer']
        if m['records']:
            c.commit(asynchronous=False)
        assignment = sorted(tp.partition for tp in c.assignment())
        result['members'].append({
            'assignment': assignment,
            'records': m['records'],
            'revoked': m['revoked'],
            'committed': committed_offsets(c, topic, assignment),
        })
    for m in members:
        m['consumer'].close()
    return result


def latency(bootstrap, topic, rate, count):
    """Produce latency (send -> delivery report) and end-to-end latency (send -> a consumer of
    the same process polls it) of `count` 100-byte records sent at `rate` records/s by one
    idempotent acks=all producer (linger.ms 0) into an empty topic."""
    c = Consumer({'bootstrap.servers': bootstrap, 'group.id': 'latency-%d' % int(time.time() * 1000),
                  'client.id': 'confluent-latency', 'auto.offset.reset': 'earliest',
                  'enable.auto.commit': False, 'fetch.wait.max.ms': 100, 'socket.nagle.disable': True})
    c.subscribe([topic])
    deadline = time.time() + 20
    while not c.assignment() and time.time() < deadline:
        c.poll(0.05)
    p = Producer({'bootstrap.servers': bootstrap, 'acks': 'all', 'enable.idempotence': True,
                  'linger.ms': 0, 'socket.nagle.disable': True, 'client.id': 'confluent-latency'})
    p.list_topics(topic, timeout=10)
    sent_at = {}
    produce_ms = []
    e2e_ms = []
    failed = [0]

    def on_delivery(err, msg):
        if err:
            failed[0] += 1
        else:
            produce_ms.append((time.perf_counter() - sent_at[msg.value()[:12]]) * 1000)

    def drain():
        for m in c.consume(num_messages=1000, timeout=0):
            if not m.error():
                at = sent_at.get(m.value()[:12])
                if at is not None:
                    e2e_ms.append((time.perf_counter() - at) * 1000)

    payload = b'x' * 88
    start = time.perf_counter()
    sent = 0
    while sent < count:
        due = min(count, int((time.perf_counter() - start) * rate) + 1)
        while sent < due:
            key = b'%012d' % sent
            sent_at[key] = time.perf_counter()
            p.produce(topic, value=key + payload, on_delivery=on_delivery)
            sent += 1
        p.poll(0)
        drain()
    p.flush(30)
    elapsed = time.perf_counter() - start
    deadline = time.time() + 20
    while len(e2e_ms) < count - failed[0] and time.time() < deadline:
        drain()
        time.sleep(0.001)
    c.close()
    return {'sent': count, 'seconds': elapsed, 'failed': failed[0], 'produceMs': produce_ms, 'endToEndMs': e2e_ms}


def acks(bootstrap, topic, count, rate, timeout_ms=5000, prefix='r'):
    p = Producer({'bootstrap.servers': bootstrap, 'acks': 'all', 'enable.idempotence': True,
                  'linger.ms': 5, 'message.timeout.ms': timeout_ms, 'client.id': 'confluent-acks'})
    failed = [0]

    def on_delivery(err, msg):
        if err:
            failed[0] += 1
        else:
            sys.stdout.write(json.dumps([msg.partition(), msg.offset(), msg.value().decode()]) + '\n')
            sys.stdout.flush()

    start = time.perf_counter()
    sent = 0
    while sent < count:
        due = min(count, int((time.perf_counter() - start) * rate) + 1)
        while sent < due:
            p.produce(topic, value=b'%s-%d' % (prefix.encode(), sent), on_delivery=on_delivery)
            sent += 1
        p.poll(0.005)
    # Every message is delivered or failed within message.timeout.ms of its produce: wait that
    # long (and a little), so none is left unreported on a slow machine.
    left = p.flush(timeout_ms / 1000 + 10)
    return {'done': sent, 'failed': failed[0], 'undelivered': left}


def follow(bootstrap, group, topic):
    stop = threading.Event()

    def wait_for_eof():
        sys.stdin.read()
        stop.set()

    threading.Thread(target=wait_for_eof, daemon=True).start()
    c = consumer(bootstrap, group, 'confluent-follow')
    c.subscribe([topic])
    read = 0
    while not stop.is_set():
        batch = [m for m in c.consume(num_messages=500, timeout=0.1) if not m.error()]
        for m in batch:
            sys.stdout.write(json.dumps([m.partition(), m.offset(), m.value().decode()]) + '\n')
        sys.stdout.flush()
        read += len(batch)
        if batch:
            try:
                c.commit(asynchronous=True)
            except KafkaException:
                pass  # no coordinator for a moment (failover): the next batch commits again
    try:
        c.commit(asynchronous=False)
    except KafkaException as e:
        if e.args[0].code() != KafkaError._NO_OFFSET:
            raise  # _NO_OFFSET: the asynchronous commits already covered every record read
    partitions = sorted(tp.partition for tp in c.assignment())
    result = {'done': read, 'committed': committed_offsets(c, topic, partitions)}
    c.close()
    return result


def committed(bootstrap, group, topic, partitions):
    c = consumer(bootstrap, group, 'confluent-committed')
    out = committed_offsets(c, topic, range(partitions))
    c.close()
    return out


def main(argv):
    cmd, bootstrap = argv[1], argv[2]
    if cmd == 'metadata':
        out = metadata(bootstrap)
    elif cmd == 'consume':
        out = consume(bootstrap, argv[3], argv[4], int(argv[5]))
    elif cmd == 'pair':
        out = pair(bootstrap, argv[3], argv[4], int(argv[5]))
    elif cmd == 'produce':
        out = produce(bootstrap, argv[3], int(argv[4]))
    elif cmd == 'read':
        out = read(bootstrap, argv[3], int(argv[4]))
    elif cmd == 'admin':
        out = admin(bootstrap, argv[3])
    elif cmd == 'latency':
        out = latency(bootstrap, argv[3], float(argv[4]), int(argv[5]))
    elif cmd == 'acks':
        out = acks(bootstrap, argv[3], int(argv[4]), float(argv[5]), *(int(a) for a in argv[6:7]), *argv[7:8])
    elif cmd == 'follow':
        out = follow(bootstrap, argv[3], argv[4])
    elif cmd == 'committed':
        out = committed(bootstrap, argv[3], argv[4], int(argv[5]))
    else:
        raise SystemExit('unknown command ' + cmd)
    json.dump(out, sys.stdout)


if __name__ == '__main__':
    main(sys.argv)
