// What joint_grid.c and ragdoll_rain.c share: the world (one worker, no task system), the
// command line, the timed steps and the report. Our own code against Box2D's public API.
//
// Each program builds one of impact's built-in joint scenes (`crates/impact-cli/src/scenes/
// joints.rs`), steps it `--warm-up W` times untimed (default 10, as `benches/peers` warms up),
// then `--steps N` times (default: the scene's own step count), each b2World_Step(world, 1/60, 4)
// timed alone with clock_gettime(CLOCK_MONOTONIC), or with `--cpu-time` by the thread's CPU
// time (CLOCK_THREAD_CPUTIME_ID: the time the thread waited for a processor while other jobs
// ran is left out, as `peers --clock cpu` does); it prints the median, p95 and mean ms per
// timed step (the percentile rule of large_pyramid.c), Box2D's own profile medians (pairs,
// collide, solve, refit; wall-clock), and a sanity line of the scene's own.

#ifndef JOINT_BENCH_H
#define JOINT_BENCH_H

#include "box2d/box2d.h"
#include "box2d/math_functions.h"
#include "box2d/types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEP_DT ( 1.0f / 60.0f )
#define SUBSTEPS 4

// Growable arrays of body and joint ids, in creation order.
typedef struct Ids
{
	b2BodyId* bodies;
	int bodyCount;
	int bodyCapacity;
	b2JointId* joints;
	int jointCount;
	int jointCapacity;
} Ids;

static void* grow( void* items, int* capacity, size_t size )
{
	*capacity = *capacity == 0 ? 1024 : 2 * *capacity;
	void* more = realloc( items, (size_t)*capacity * size );
	if ( more == NULL )
	{
		fprintf( stderr, "out of memory\n" );
		exit( 1 );
	}
	return more;
}

static void add_body( Ids* ids, b2BodyId id )
{
	if ( ids->bodyCount == ids->bodyCapacity )
	{
		ids->bodies = grow( ids->bodies, &ids->bodyCapacity, sizeof( b2BodyId ) );
	}
	ids->bodies[ids->bodyCount++] = id;
}

static void add_joint( Ids* ids, b2JointId id )
{
	if ( ids->jointCount == ids->jointCapacity )
	{
		ids->joints = grow( ids->joints, &ids->jointCapacity, sizeof( b2JointId ) );
	}
	ids->joints[ids->jointCount++] = id;
}

// A world with gravity (0, -10) (impact's scenes' default) stepping on the calling thread.
static b2WorldId new_world( void )
{
	b2WorldDef def = b2DefaultWorldDef();
	def.gravity = ( b2Vec2 ){ 0.0f, -10.0f };
	def.workerCount = 1;
	def.enqueueTask = NULL;
	def.finishTask = NULL;
	def.userTaskContext = NULL;
	return b2CreateWorld( &def );
}

// A dynamic body at (x, y), at rest, that never sleeps (both scenes turn sleep off).
static b2BodyId awake_body( b2WorldId world, float x, float y )
{
	b2BodyDef def = b2DefaultBodyDef();
	def.type = b2_dynamicBody;
	def.position = ( b2Vec2 ){ x, y };
	def.enableSleep = false;
	return b2CreateBody( world, &def );
}

// A revolute joint between a and b pinned at `anchor` (world, as the bodies are placed; both
// at angle 0, so the frames keep identity rotations and the angle is zero as placed), its
// angle limited to [lower, upper] when `limit`. Everything else is Box2D's default: no
// collision between a and b, constraint 60 Hz with damping ratio 2 (impact's JOINT_HERTZ and
// JOINT_DAMPING_RATIO), no spring, no motor.
static b2JointId pin( b2WorldId world, b2BodyId a, b2BodyId b, b2Vec2 anchor, bool limit, float lower, float upper )
{
	b2RevoluteJointDef def = b2DefaultRevoluteJointDef();
	def.base.bodyIdA = a;
	def.base.bodyIdB = b;
	def.base.localFrameA.p = b2Body_GetLocalPoint( a, anchor );
	def.base.localFrameB.p = b2Body_GetLocalPoint( b, anchor );
	def.enableLimit = limit;
	def.lowerAngle = lower;
	def.upperAngle = upper;
	return b2CreateRevoluteJoint( world, &def );
}

// The largest distance between the two anchors of any joint now (meters).
static float worst_joint_gap( const Ids* ids )
{
	float worst = 0.0f;
	for ( int i = 0; i < ids->jointCount; ++i )
	{
		float gap = b2Joint_GetLinearSeparation( ids->joints[i] );
		worst = gap > worst ? gap : worst;
	}
	return worst;
}

static int compare_doubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

// The element at round((n - 1) p) of the sorted values.
static double percentile( const double* sorted, int n, double p )
{
	return sorted[(int)round( (double)( n - 1 ) * p )];
}

// The clock that times a step: CLOCK_MONOTONIC, or CLOCK_THREAD_CPUTIME_ID with --cpu-time.
static clockid_t stepClock = CLOCK_MONOTONIC;

// Reads `--steps N`, `--warm-up W` (defaults `*steps` and `*warmUp`) and `--cpu-time`; 0 when
// the line is good, else 2 after a message.
static int parse_args( int argc, char** argv, const char* program, int* steps, int* warmUp )
{
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--cpu-time" ) == 0 )
		{
			stepClock = CLOCK_THREAD_CPUTIME_ID;
			continue;
		}
		bool isSteps = strcmp( argv[i], "--steps" ) == 0;
		bool isWarmUp = strcmp( argv[i], "--warm-up" ) == 0;
		if ( ( isSteps || isWarmUp ) && i + 1 < argc )
		{
			int value = atoi( argv[i + 1] );
			if ( value < ( isSteps ? 1 : 0 ) )
			{
				fprintf( stderr, "%s: %s needs a whole number (at least %d)\n", program, argv[i], isSteps ? 1 : 0 );
				return 2;
			}
			*( isSteps ? steps : warmUp ) = value;
			++i;
			continue;
		}
		fprintf( stderr, "usage: %s [--steps N] [--warm-up W] [--cpu-time]\n", program );
		return 2;
	}
	return 0;
}

// Steps `warmUp` times untimed and `steps` times timed, and prints the line of the table.
static void time_steps( b2WorldId world, const char* name, int warmUp, int steps )
{
	for ( int i = 0; i < warmUp; ++i )
	{
		b2World_Step( world, STEP_DT, SUBSTEPS );
	}
	double* times = malloc( (size_t)steps * sizeof( double ) );
	double* stage[4];
	for ( int s = 0; s < 4; ++s )
	{
		stage[s] = malloc( (size_t)steps * sizeof( double ) );
	}
	if ( times == NULL || stage[0] == NULL || stage[1] == NULL || stage[2] == NULL || stage[3] == NULL )
	{
		fprintf( stderr, "out of memory\n" );
		exit( 1 );
	}
	for ( int i = 0; i < steps; ++i )
	{
		struct timespec start, end;
		clock_gettime( stepClock, &start );
		b2World_Step( world, STEP_DT, SUBSTEPS );
		clock_gettime( stepClock, &end );
		times[i] = (double)( end.tv_sec - start.tv_sec ) * 1e3 + (double)( end.tv_nsec - start.tv_nsec ) * 1e-6;
		b2Profile profile = b2World_GetProfile( world );
		stage[0][i] = profile.pairs;
		stage[1][i] = profile.collide;
		stage[2][i] = profile.solve;
		stage[3][i] = profile.refit;
	}
	double mean = 0.0;
	for ( int i = 0; i < steps; ++i )
	{
		mean += times[i];
	}
	mean /= (double)steps;
	qsort( times, (size_t)steps, sizeof( double ), compare_doubles );
	double stages[4];
	for ( int s = 0; s < 4; ++s )
	{
		qsort( stage[s], (size_t)steps, sizeof( double ), compare_doubles );
		stages[s] = percentile( stage[s], steps, 0.5 );
	}
	b2Version version = b2GetVersion();
	printf( "Box2D %d.%d.%d, one worker, no task system; 60 Hz, %d sub-steps; %d warm-up steps; %s\n", version.major,
			version.minor, version.revision, SUBSTEPS, warmUp,
			stepClock == CLOCK_MONOTONIC ? "wall-clock time" : "thread CPU time" );
	printf( "scene            steps  median ms   p95 ms  mean ms | pairs collide  solve  refit\n" );
	printf( "%-16s %6d %10.3f %8.3f %8.3f | %5.2f %7.2f %6.2f %6.2f\n", name, steps, percentile( times, steps, 0.5 ),
			percentile( times, steps, 0.95 ), mean, stages[0], stages[1], stages[2], stages[3] );
	free( times );
	for ( int s = 0; s < 4; ++s )
	{
		free( stage[s] );
	}
}

#endif
