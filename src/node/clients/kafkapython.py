"""kafka-python (Debian's python3-kafka, a pure-Python client with its own protocol code) against
the glassbox Node host, driven by src/node/ClientSuites.test.ts. Each command prints one JSON
object on stdout.

  metadata BOOTSTRAP                  KafkaAdminClient.describe_cluster and describe_topics
  produce BOOTSTRAP TOPIC COUNT       a KafkaProducer, acks=all (kafka-python 2.0 has no
                                      idempotence): COUNT keyed records `kafkapython-<i>`
  read BOOTSTRAP TOPIC COUNT          a KafkaConsumer assigned every partition from the beginning
  pair BOOTSTRAP GROUP TOPIC COUNT    two KafkaConsumers of one group share TOPIC, commit, leave
  admin BOOTSTRAP TOPIC GROUP         KafkaAdminClient: create TOPIC (2 partitions), grow it to 4,
                                      alter and describe its configs, delete it; delete GROUP
"""
import json
import sys
import threading
import time

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewPartitions, NewTopic


def metadata(bootstrap):
    a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id='kafkapython-admin')
    cluster = a.describe_cluster()
    topics = a.describe_topics()
    a.close()
    return {
        'controllerId': cluster['controller_id'],
        'brokers': sorted(({'id': b['node_id'], 'host': b['host'], 'port': b['port']} for b in cluster['brokers']),
                          key=lambda b: b['id']),
        'topics': {
            t['topic']: sorted(({'partition': p['partition'], 'leader': p['leader'], 'replicas': p['replicas'],
                                 'isrs': p['isr']} for p in t['partitions']), key=lambda p: p['partition'])
            for t in topics
        },
    }


def produce(bootstrap, topic, count):
    p = KafkaProducer(bootstrap_servers=bootstrap, acks='all', client_id='kafkapython-producer', linger_ms=5,
                      max_in_flight_requests_per_connection=1, retries=5)
    futures = [p.send(topic, key=b'k%d' % (i % 100), value=b'kafkapython-%d' % i) for i in range(count)]
    p.flush(60)
    delivered = sum(1 for f in futures if f.succeeded())
    p.close()
    return {'delivered': delivered, 'failed': [str(f.exception) for f in futures if f.failed()][:5]}


def read(bootstrap, topic, expected, timeout=40.0):
    c = KafkaConsumer(bootstrap_servers=bootstrap, client_id='kafkapython-reader', enable_auto_commit=False,
                      auto_offset_reset='earliest')
    parts = [TopicPartition(topic, p) for p in sorted(c.partitions_for_topic(topic))]
    c.assign(parts)
    c.seek_to_beginning()
    seen = []
    deadline = time.time() + timeout
    while len(seen) < expected and time.time() < deadline:
        for records in c.poll(timeout_ms=200, max_records=2000).values():
            seen.extend([r.partition, r.offset, r.value.decode()] for r in records)
    c.close()
    return {'records': seen}


def pair(bootstrap, group, topic, expected, timeout=60.0):
    """Two consumers of one group, each in its own thread (kafka-python's poll blocks while its
    member rejoins, so one thread cannot drive both); auto commit off, each commits what it
    read after every poll, and at the end reads its committed offsets back."""
    members = [{'records': [], 'assignment': [], 'committed': {}} for _ in range(2)]
    done = threading.Event()
    deadline = time.time() + timeout

    def run(i):
        m = members[i]
        c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, client_id='kafkapython-%s-%d' % (group, i),
                          enable_auto_commit=False, auto_offset_reset='earliest')
        c.subscribe([topic])
        while not done.is_set() and time.time() < deadline:
            got = c.poll(timeout_ms=100, max_records=2000)
            for records in got.values():
                m['records'].extend([r.partition, r.offset] for r in records)
            if got:
                c.commit()
            m['assignment'] = sorted(tp.partition for tp in c.assignment())
        m['committed'] = {str(p): c.committed(TopicPartition(topic, p)) for p in m['assignment']}
        c.close(autocommit=False)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    while time.time() < deadline:
        if sum(len(m['records']) for m in members) >= expected and all(m['assignment'] for m in members):
            break
        time.sleep(0.05)
    done.set()
    for t in threads:
        t.join()
    return {'members': members}


def admin(bootstrap, topic, group):
    a = KafkaAdminClient(bootstrap_servers=bootstrap, client_id='kafkapython-admin')
    steps = {}
    a.create_topics([NewTopic(topic, num_partitions=2, replication_factor=3)], timeout_ms=15000)
    a.create_partitions({topic: NewPartitions(total_count=4)}, timeout_ms=15000)
    steps['grown'] = len(a.describe_topics([topic])[0]['partitions'])
    a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs={'retention.ms': '120000'})])
    described = a.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])[0]
    steps['retention.ms'] = next(c[1] for c in described.resources[0][4] if c[0] == 'retention.ms')
    a.delete_topics([topic], timeout_ms=15000)
    steps['deletedGroups'] = [[g, str(e)] for g, e in a.delete_consumer_groups([group])]
    a.close()
    return steps


def main(argv):
    cmd, bootstrap = argv[1], argv[2]
    if cmd == 'metadata':
        out = metadata(bootstrap)
    elif cmd == 'produce':
        out = produce(bootstrap, argv[3], int(argv[4]))
    elif cmd == 'read':
        out = read(bootstrap, argv[3], int(argv[4]))
    elif cmd == 'pair':
        out = pair(bootstrap, argv[3], argv[4], int(argv[5]))
    elif cmd == 'admin':
        out = admin(bootstrap, argv[3], argv[4])
    else:
        raise SystemExit('unknown command ' + cmd)
    json.dump(out, sys.stdout)


if __name__ == '__main__':
    main(sys.argv)
